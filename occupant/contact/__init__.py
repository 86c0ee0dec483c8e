"""Contact: geometry of contact pairs, detection and contact forces (design.md section 3)."""
