"""Does not import."""
import kernelopt_no_such_module  # noqa: F401
