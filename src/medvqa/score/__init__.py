"""TODO: public API of this subpackage (owner fills in)."""
