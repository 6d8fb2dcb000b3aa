"""The old path of :func:`budgetsvm.shuffle_svmlight`; it lives in ``budgetsvm.io.external_shuffle``."""

from .io.external_shuffle import shuffle_svmlight

__all__ = ["shuffle_svmlight"]
