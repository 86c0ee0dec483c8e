"""Force producers evaluated inside the compiled step (design.md section 7, conventions rule 10)."""
