// The flow half of flowtune._flowtune: TV-L1 with a tuned config (api/flowtune/flowtune.hpp),
// .flo I/O (kernels/flo_io) and the Middlebury colour wheel (kernels/flow_viz) on NumPy
// arrays. Arrays arrive here already checked and converted by python/flowtune/__init__.py;
// C++ exceptions become Python ones with the same message (std::invalid_argument ->
// ValueError, std::runtime_error -> RuntimeError).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "bindings.hpp"
#include "flowtune/flowtune.hpp"
#include "kernels/flow_viz.hpp"
#include "select/tuned_header_reader.hpp"

namespace py = pybind11;

namespace flowtune::python {
namespace {

using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

/// An H x W float32 array as an Image (copied; intensities as given).
Image to_image(const FloatArray& a, const char* name) {
  if (a.ndim() != 2)
    throw std::invalid_argument(std::string(name) + ": expected an H x W array, got " +
                                std::to_string(a.ndim()) + " dimensions");
  Image img(static_cast<int>(a.shape(1)), static_cast<int>(a.shape(0)));
  std::memcpy(img.data.data(), a.data(), img.size() * sizeof(float));
  return img;
}

/// An H x W x 2 float32 array (u, v) as a FlowField.
FlowField to_flow(const FloatArray& a) {
  if (a.ndim() != 3 || a.shape(2) != 2)
    throw std::invalid_argument("flow: expected an H x W x 2 array (u, v)");
  FlowField f(static_cast<int>(a.shape(1)), static_cast<int>(a.shape(0)));
  const float* p = a.data();
  for (std::size_t i = 0; i < f.size(); ++i) {
    f.u[i] = p[2 * i];
    f.v[i] = p[2 * i + 1];
  }
  return f;
}

/// A FlowField as a new H x W x 2 float32 array: [y, x, 0] = u, [y, x, 1] = v.
FloatArray from_flow(const FlowField& f) {
  FloatArray out({py::ssize_t(f.height), py::ssize_t(f.width), py::ssize_t(2)});
  float* p = out.mutable_data();
  for (std::size_t i = 0; i < f.size(); ++i) {
    p[2 * i] = f.u[i];
    p[2 * i + 1] = f.v[i];
  }
  return out;
}

py::dict config_dict(const Config& c) {
  py::dict d;
  d["workload"] = c.workload;
  d["variant"] = c.variant;
  d["precision"] = c.precision;
  d["tunables"] = c.tunables;
  d["params"] = c.params;
  d["clock_mhz"] = c.clock_mhz;
  return d;
}

FloatArray flow(const FloatArray& i0, const FloatArray& i1, const std::string& config_json) {
  const Config config = parse_tuned_config(config_json);
  const Image a = to_image(i0, "i0");
  const Image b = to_image(i1, "i1");
  FlowField f;
  {
    py::gil_scoped_release release;
    f = compute_flow(a, b, config);
  }
  return from_flow(f);
}

/// A flow solver kept across frames: one config (Tvl1Solver) or every size of a header tuned
/// at several (Tvl1SizedSolver); its buffers, NVRTC build and CUDA Graphs are reused.
class Solver {
 public:
  explicit Solver(const std::string& config_json)
      : one_(std::make_unique<Tvl1Solver>(parse_tuned_config(config_json))) {}
  Solver(const std::string& header, const std::string& board)
      : sized_(std::make_unique<Tvl1SizedSolver>(header, board)) {}
  FloatArray compute(const FloatArray& i0, const FloatArray& i1) {
    const Image a = to_image(i0, "i0");
    const Image b = to_image(i1, "i1");
    {
      py::gil_scoped_release release;
      if (one_)
        one_->compute(a, b, flow_);
      else
        sized_->compute(a, b, flow_);
    }
    return from_flow(flow_);
  }
  py::dict config_for(int width, int height) const {
    return config_dict(one_ ? one_->config() : sized_->config_for(width, height));
  }
  std::pair<int, int> tuned_size_for(int width, int height) const {
    return one_ ? std::pair<int, int>{0, 0} : sized_->tuned_size_for(width, height);
  }

 private:
  std::unique_ptr<Tvl1Solver> one_;
  std::unique_ptr<Tvl1SizedSolver> sized_;
  FlowField flow_;  // kept: the solver writes into its storage frame after frame
};

py::array_t<std::uint8_t> colour(const FloatArray& flow, double max_flow) {
  const FlowField f = to_flow(flow);
  const std::vector<std::uint8_t> rgb = flow_to_rgb(f, max_flow);
  py::array_t<std::uint8_t> out({py::ssize_t(f.height), py::ssize_t(f.width), py::ssize_t(3)});
  std::memcpy(out.mutable_data(), rgb.data(), rgb.size());
  return out;
}

}  // namespace

void bind_flow(py::module_& m) {
  m.def("_flow", &flow, py::arg("i0"), py::arg("i1"), py::arg("config_json"),
        "TV-L1 flow (H x W x 2 float32, px) of two H x W float32 frames with a config JSON.");
  m.def(
      "_read_tuned_config",
      [](const std::string& path, const std::string& board) {
        return config_dict(read_tuned_header(path, board));
      },
      py::arg("path"), py::arg("board") = "", "The config of a header written by `tune export`.");
  m.def(
      "_parse_config",
      [](const std::string& json) { return config_dict(parse_tuned_config(json)); },
      py::arg("json"), "A config JSON checked and read back as a dict.");
  m.def(
      "_read_png",
      [](const std::string& path) {
        const Image img = read_png_gray(path);
        FloatArray out({py::ssize_t(img.height), py::ssize_t(img.width)});
        std::memcpy(out.mutable_data(), img.data.data(), img.size() * sizeof(float));
        return out;
      },
      py::arg("path"), "A PNG as H x W float32 grayscale (BT.601 luma) in [0, 255].");
  m.def(
      "_read_flo", [](const std::string& path) { return from_flow(read_flo(path)); },
      py::arg("path"), "A Middlebury .flo file as H x W x 2 float32.");
  m.def(
      "_write_flo",
      [](const std::string& path, const FloatArray& flow) { write_flo(path, to_flow(flow)); },
      py::arg("path"), py::arg("flow"), "Writes H x W x 2 float32 as a Middlebury .flo file.");
  py::class_<Solver>(m, "_Solver", "A TV-L1 solver kept across frames (api: Tvl1Solver).")
      .def(py::init<const std::string&>(), py::arg("config_json"))
      .def(py::init<const std::string&, const std::string&>(), py::arg("header"), py::arg("board"))
      .def("compute", &Solver::compute, py::arg("i0"), py::arg("i1"),
           "Flow (H x W x 2 float32, px) of two H x W float32 frames.")
      .def("config_for", &Solver::config_for, py::arg("width"), py::arg("height"),
           "The config run for frames of width x height, as a dict.")
      .def("tuned_size_for", &Solver::tuned_size_for, py::arg("width"), py::arg("height"),
           "The (width, height) the config for such frames was tuned at; (0, 0) = own size.");
  m.def("_colour", &colour, py::arg("flow"), py::arg("max_flow") = 0.0,
        "Middlebury colour-wheel image (H x W x 3 uint8) of an H x W x 2 flow.");
  m.def("_flow_color", &flow_color, py::arg("u"), py::arg("v"),
        "RGB of one vector already divided by the normalising radius.");
#ifdef FLOWTUNE_HAVE_CUDA
  m.attr("has_cuda") = true;
#else
  m.attr("has_cuda") = false;
#endif
}

}  // namespace flowtune::python
