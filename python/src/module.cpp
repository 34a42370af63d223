// flowtune._flowtune: the extension module under the Python package flowtune
// (python/flowtune/__init__.py documents the public API; these are its private calls).
#include "bindings.hpp"

PYBIND11_MODULE(_flowtune, m) {
  m.doc() =
      "flowtune's C++ core: TV-L1 with a tuned config (api/), .flo I/O, the Middlebury "
      "colour wheel and the DB (read-only). Use the package flowtune, not this module.";
  flowtune::python::bind_flow(m);
  flowtune::python::bind_db(m);
}
