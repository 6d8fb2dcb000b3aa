"""The old path of :func:`budgetsvm.iter_svmlight`; it lives in ``budgetsvm.io.streaming``."""

from .io.streaming import SvmlightChunks, iter_svmlight

__all__ = ["iter_svmlight", "SvmlightChunks"]
