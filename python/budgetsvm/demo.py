"""The old path of ``budgetsvm demo``'s module; it lives in ``budgetsvm.cli.demo``."""

from .cli.demo import Problem, Row, builtin_problems, checkerboard, file_problem, fit_budgeted, fit_svc_within, run_demo

__all__ = ["Problem", "Row", "builtin_problems", "checkerboard", "file_problem", "fit_budgeted", "fit_svc_within",
           "run_demo"]
