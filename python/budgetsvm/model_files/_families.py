"""The estimator classes a model file holds, by the family name it records
(``MODL``'s family; ``SVC`` for LIBSVM text, ``LinearSVC`` for LIBLINEAR's):
the public classes, imported once here (the estimators never import model
files, so there is no cycle)."""

from __future__ import annotations

from typing import Dict

from ..estimators import (SVC, SVR, BudgetedOneClassSVM, BudgetedSVC, BudgetedSVR, LinearSVC, NuSVC, NuSVR,
                          OneClassSVM)

#: family name -> the estimator class a loaded model is an instance of
ESTIMATORS: Dict[str, type] = {"SVC": SVC, "LinearSVC": LinearSVC, "BudgetedSVC": BudgetedSVC, "SVR": SVR,
                               "NuSVR": NuSVR, "NuSVC": NuSVC, "OneClassSVM": OneClassSVM, "BudgetedSVR": BudgetedSVR,
                               "BudgetedOneClassSVM": BudgetedOneClassSVM}
