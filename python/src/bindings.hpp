// The parts of the extension module flowtune._flowtune (python/src/module.cpp joins them).
#pragma once

#include <pybind11/pybind11.h>

namespace flowtune::python {

/// Binds the flow functions: _flow, _read_png, _read_flo, _write_flo, _colour, _read_tuned_config,
/// _parse_config, _Solver, has_cuda (python/src/flow_bindings.cpp).
void bind_flow(pybind11::module_& m);

/// Binds _read_db, the tables of a flowtune DB as columns (python/src/db_bindings.cpp).
void bind_db(pybind11::module_& m);

}  // namespace flowtune::python
