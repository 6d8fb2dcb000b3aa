"""Sphinx configuration of the budgetsvm documentation.

Built by ``.ci/run`` with ``sphinx-build -W --keep-going -n``: every warning is
an error, including a page of docs/ that no toctree lists. Nothing is fetched
from the network (no intersphinx). The package is imported from the installed
copy (``pip install .``), so the API reference documents what users get.
"""

import os
import sys

import budgetsvm

sys.path.insert(0, os.path.dirname(__file__))  # cli_reference.py

project = "budgetsvm"
author = "the budgetsvm developers"
copyright = "the budgetsvm developers"
release = budgetsvm.__version__
version = release

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinxarg.ext",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "README.md"]
templates_path = ["_templates"]

# MyST: heading anchors so that [text](page.md#section) links resolve.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# The API reference: one page per public name of budgetsvm.__all__.
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"inherited-members": "BaseEstimator, ClassifierMixin"}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
# numpydoc's cross-reference guesses (``array-like``, ``int``) would warn
# without intersphinx; types stay plain text.
numpydoc_xref_param_type = False

# Nothing from the network: no intersphinx, so references into numpy, scipy
# and scikit-learn stay plain text instead of failing the build.
nitpick_ignore_regex = [(r"py:.*", r"(os|numpy|scipy|sklearn)(\..*)?")]

html_theme = "pydata_sphinx_theme"
html_title = f"budgetsvm {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
html_static_path: list = []


def _check_api_page(app):
    """Every name of budgetsvm.__all__ has its line in api.md (a warning,
    so an error under -W, names the one missing)."""
    import re

    from sphinx.util import logging

    with open(os.path.join(app.srcdir, "api.md"), encoding="utf-8") as f:
        listed = set(re.findall(r"^   (\w+)$", f.read(), flags=re.M))
    for name in sorted(set(budgetsvm.__all__) - listed - {"__version__"}):
        logging.getLogger(__name__).warning(f"budgetsvm.{name} is in __all__ but not in docs/api.md")


def setup(app):
    app.connect("builder-inited", _check_api_page)
