"""The old path of :func:`budgetsvm.shuffle_chunks`; it lives in ``budgetsvm.io.shuffle``."""

from .io.shuffle import shuffle_chunks

__all__ = ["shuffle_chunks"]
