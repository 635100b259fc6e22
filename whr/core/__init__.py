"""The WHR solver: integer indices and arrays in, arrays out (numpy/scipy only).

No files, names, pandas or Prefect here; :mod:`whr.engine` maps names and dates to indices.
Natural units inside (``r_natural = r_elo * ln(10) / 400``).
"""

from whr.core.model import (
    ELO_PER_NATURAL,
    NATURAL_PER_ELO,
    Problem,
    build,
    conditional,
    gradient,
    gradient_and_neg_hessian_parts,
    log_posterior,
    neg_hessian,
    neg_hessian_parts,
    rating_on_days,
)
from whr.core.solver import (
    ConvergenceError,
    Operator,
    Solution,
    local_newton,
    solve,
    tridiagonal_inverse_diagonal,
    uncertainty,
)

__all__ = [
    "ELO_PER_NATURAL",
    "NATURAL_PER_ELO",
    "ConvergenceError",
    "Operator",
    "Problem",
    "Solution",
    "build",
    "conditional",
    "gradient",
    "gradient_and_neg_hessian_parts",
    "local_newton",
    "log_posterior",
    "neg_hessian",
    "neg_hessian_parts",
    "rating_on_days",
    "solve",
    "tridiagonal_inverse_diagonal",
    "uncertainty",
]
