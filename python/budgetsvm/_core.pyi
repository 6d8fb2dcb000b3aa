"""Type stubs of the compiled module budgetsvm._core (private: use the
estimators and functions of the budgetsvm package)."""

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

# What budgetsvm._data.core_view returns: a dense float32/float64 C- or
# F-contiguous array, or the CSR buffers (data, indices, indptr, n_rows, n_cols).
CoreData = Union[npt.NDArray[np.floating], Tuple[np.ndarray, np.ndarray, np.ndarray, int, int]]

__version__: str

def all_finite(X: CoreData) -> bool: ...
def check_csr(indices: npt.NDArray[Any], indptr: npt.NDArray[Any], n_rows: int, n_cols: int) -> None: ...
def entry_moments(X: CoreData) -> Tuple[float, float, float, float]: ...
def largest_squared_row_norm(X: CoreData) -> float: ...
def kernel_matrix(
    X: CoreData, Y: CoreData, kernel: str, gamma: float, degree: int, coef0: float, n_jobs: int = 1
) -> npt.NDArray[np.float64]: ...
def decision_function(
    X: CoreData,
    SV: CoreData,
    coef: npt.NDArray[np.float64],
    kernel: str,
    gamma: float,
    degree: int,
    coef0: float,
    n_jobs: int = 1,
) -> npt.NDArray[np.float64]: ...
def model_predict(
    path: str, X: CoreData, n_jobs: int = 1
) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.intc], List[str]]: ...
def model_summary(path: str) -> Tuple[int, int, int, int]: ...
def model_resave(source: str, target: str) -> None: ...
def check_model_attributes(
    text: bytes,
    family: int,
    n_classes: int,
    n_support_vectors: int,
    n_features: int,
    arrays: Dict[str, Tuple[int, Tuple[int, ...]]],
) -> None: ...
def model_attribute_rules(family: int) -> List[Tuple[str, str, int, Tuple[str, ...]]]: ...

SVMLIGHT_MAX_LINE_BYTES: int

class SvmlightParser:
    def __init__(
        self,
        float32: bool,
        zero_based: bool,
        n_features: Optional[int] = None,
        max_line_bytes: int = ...,
        drop_extra_columns: bool = False,
    ) -> None: ...
    def feed(self, chunk: bytes) -> None: ...
    def finish(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray, npt.NDArray[np.float64], int]: ...
    def end(self) -> None: ...
    @property
    def rows(self) -> int: ...
    @property
    def columns_seen(self) -> int: ...
    def take(self, max_rows: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray, npt.NDArray[np.float64]]: ...

# Budgeted kernel SVM (BSGD, BSCA)
def merge_solution(
    m: float, kappa: float, method: str = "lookup-wd", eps: float = 0.01, grid: int = 400
) -> Tuple[float, float]: ...
def fit_budgeted(
    X: CoreData,
    y: npt.NDArray[np.int32],
    n_classes: int,
    params: Dict[str, Any],
    callback: Optional[Callable[[Dict[str, Any]], Optional[bool]]] = None,
    sample_weight: Optional[npt.NDArray[np.float64]] = None,
    start: Optional[Dict[str, Any]] = None,
) -> Dict[str, Any]: ...
def fit_budgeted_regression(
    X: CoreData,
    y: npt.NDArray[np.float64],
    epsilon: float,
    params: Dict[str, Any],
    callback: Optional[Callable[[Dict[str, Any]], Optional[bool]]] = None,
    sample_weight: Optional[npt.NDArray[np.float64]] = None,
    start: Optional[Dict[str, Any]] = None,
) -> Dict[str, Any]: ...
def fit_budgeted_one_class(
    X: CoreData,
    nu: float,
    params: Dict[str, Any],
    callback: Optional[Callable[[Dict[str, Any]], Optional[bool]]] = None,
    sample_weight: Optional[npt.NDArray[np.float64]] = None,
    start: Optional[Dict[str, Any]] = None,
) -> Dict[str, Any]: ...
def bsca_shard_round(
    X: CoreData,
    y: npt.NDArray[np.int32],
    params: Dict[str, Any],
    start: Optional[Dict[str, Any]],
    alpha: npt.NDArray[np.float64],
    n: float,
    first_epoch: int,
    total_epochs: int,
    sample_weight: Optional[npt.NDArray[np.float64]] = None,
) -> Dict[str, Any]: ...
def mix_budgeted(
    parts: List[Dict[str, Any]], params: Dict[str, Any], one_vs_rest: bool = False, guard: str = "automatic"
) -> Dict[str, Any]: ...
def simd_level() -> str: ...

# Linear SVM (dual coordinate descent, AVSF)
def fit_linear(
    X: CoreData,
    labels: npt.NDArray[np.int32],
    n_classes: int,
    class_weight: npt.NDArray[np.float64],
    sample_weight: npt.NDArray[np.float64],
    params: Dict[str, Any],
) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], List[Dict[str, Any]]]: ...

# Exact kernel SVM (ALFPGM / SMO)
def fit_exact(
    X: Union[CoreData, npt.NDArray[np.float64]],
    y: npt.NDArray[np.float64],
    params: Dict[str, Any],
    rows: Optional[npt.NDArray[np.int64]] = None,
    weight_pos: float = 1.0,
    weight_neg: float = 1.0,
    sample_weight: Optional[Sequence[float]] = None,
) -> Dict[str, Any]: ...
def fit_exact_ovo(
    X: Union[CoreData, npt.NDArray[np.float64]],
    class_rows: npt.NDArray[np.int64],
    class_start: npt.NDArray[np.int64],
    params: Dict[str, Any],
    class_weight: npt.NDArray[np.float64],
    sample_weight: Optional[npt.NDArray[np.float64]] = None,
    on_pair: Optional[Callable[[int, str, int, float, float, bool], None]] = None,
    nu: float = 0.0,
) -> Dict[str, Any]: ...
def fit_exact_dual(
    X: Union[CoreData, npt.NDArray[np.float64]],
    rows: npt.NDArray[np.int64],
    y: npt.NDArray[np.float64],
    upper: npt.NDArray[np.float64],
    p: npt.NDArray[np.float64],
    alpha0: Optional[npt.NDArray[np.float64]],
    params: Dict[str, Any],
    nu: bool = False,
) -> Dict[str, Any]: ...
def ovo_scores(
    X: Union[CoreData, npt.NDArray[np.float64]],
    SV: Optional[CoreData],
    dual: npt.NDArray[np.float64],
    n_support: npt.NDArray[np.int64],
    intercept: npt.NDArray[np.float64],
    kernel: str,
    gamma: float,
    degree: int,
    coef0: float,
    n_jobs: int = 1,
    output: str = "values",
    row_scale: Optional[npt.NDArray[np.float64]] = None,
) -> Any: ...

# Result field tables: the keys of the dicts above, in order, from the C++
# structs' tables (core/fields.hpp): 'budget.Counters', 'budget.EpochStats',
# 'budget.Result', 'exact.ExactResult', 'exact.PairReports',
# 'exact.OvoResult', 'linear.Stats'
def fields(name: str) -> Tuple[str, ...]: ...

# Hyperparameter registries ('budgeted', 'exact', 'linear')
def options(family: str) -> List[Dict[str, Any]]: ...
def check_options(family: str, params: Dict[str, Any]) -> None: ...
