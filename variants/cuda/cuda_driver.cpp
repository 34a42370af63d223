#include "variants/cuda/cuda_driver.hpp"

#include <mutex>
#include <stdexcept>

namespace flowtune::cuda {
namespace {

/// Driver entry points, resolved once through the runtime.
struct DriverApi {
  decltype(&::cuModuleLoadData) module_load_data = nullptr;
  decltype(&::cuModuleUnload) module_unload = nullptr;
  decltype(&::cuModuleGetFunction) module_get_function = nullptr;
  decltype(&::cuFuncGetAttribute) func_get_attribute = nullptr;
  decltype(&::cuFuncSetAttribute) func_set_attribute = nullptr;
  decltype(&::cuLaunchKernel) launch_kernel = nullptr;
  decltype(&::cuLaunchCooperativeKernel) launch_cooperative_kernel = nullptr;
  decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor) occupancy_blocks = nullptr;
  decltype(&::cuGetErrorString) get_error_string = nullptr;
#if CUDA_VERSION >= 12000
  /// Null where the driver predates CUDA 12.0: launches then stay in stream order.
  decltype(&::cuLaunchKernelEx) launch_kernel_ex = nullptr;
#endif
};

/// The driver's entry point `symbol` (version 12.0 of its ABI; with a CUDA 11 runtime, as
/// JetPack 5's 11.4, the version of that runtime, through the 11.3+ call without the query
/// result), or null with the reason in `why`.
void* find_entry_point(const char* symbol, std::string& why) {
  void* p = nullptr;
#if CUDART_VERSION >= 12000
  cudaDriverEntryPointQueryResult status{};
#if CUDART_VERSION >= 12050
  const cudaError_t e =
      cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &status);
#else
  const cudaError_t e = cudaGetDriverEntryPoint(symbol, &p, cudaEnableDefault, &status);
#endif
  const bool found = status == cudaDriverEntryPointSuccess;
#else
  const cudaError_t e = cudaGetDriverEntryPoint(symbol, &p, cudaEnableDefault);
  const bool found = true;
#endif
  if (e != cudaSuccess || !found || !p) {
    cudaGetLastError();
    why = cudaGetErrorString(e);
    return nullptr;
  }
  return p;
}

template <typename Fn>
void resolve(const char* symbol, Fn* fn) {
  std::string why;
  void* p = find_entry_point(symbol, why);
  if (!p)
    throw std::runtime_error(std::string("cuda_driver: driver entry point ") + symbol +
                             " unavailable (" + why + ")");
  *fn = reinterpret_cast<Fn>(p);
}

const DriverApi& driver() {
  static std::once_flag once;
  static DriverApi api;
  static std::string error;
  std::call_once(once, [] {
    try {
      check_cuda(cudaFree(nullptr), "initialising the primary context");
      resolve("cuModuleLoadData", &api.module_load_data);
      resolve("cuModuleUnload", &api.module_unload);
      resolve("cuModuleGetFunction", &api.module_get_function);
      resolve("cuFuncGetAttribute", &api.func_get_attribute);
      resolve("cuFuncSetAttribute", &api.func_set_attribute);
      resolve("cuLaunchKernel", &api.launch_kernel);
      resolve("cuLaunchCooperativeKernel", &api.launch_cooperative_kernel);
      resolve("cuOccupancyMaxActiveBlocksPerMultiprocessor", &api.occupancy_blocks);
      resolve("cuGetErrorString", &api.get_error_string);
#if CUDA_VERSION >= 12000
      std::string why;
      api.launch_kernel_ex = reinterpret_cast<decltype(&::cuLaunchKernelEx)>(
          find_entry_point("cuLaunchKernelEx", why));
#endif
    } catch (const std::exception& ex) {
      error = ex.what();
    }
  });
  if (!error.empty()) throw std::runtime_error(error);
  return api;
}

void check_cu(CUresult r, const std::string& what) {
  if (r == CUDA_SUCCESS) return;
  const char* msg = nullptr;
  driver().get_error_string(r, &msg);
  throw std::runtime_error("cuda_driver: " + what + ": " + (msg ? msg : "unknown error"));
}

}  // namespace

void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("cuda: ") + what + ": " + cudaGetErrorString(e));
}

bool device_available() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return false;
  }
  return n > 0;
}

std::string current_device_arch() {
  int dev = 0;
  check_cuda(cudaGetDevice(&dev), "cudaGetDevice");
  int major = 0, minor = 0;
  check_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev),
             "compute capability");
  check_cuda(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev),
             "compute capability");
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

bool programmatic_launch_supported() {
#if CUDA_VERSION >= 12000
  if (!device_available()) return false;
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return major >= 9 && driver().launch_kernel_ex != nullptr;
#else
  return false;
#endif
}

LoadedModule::LoadedModule(const std::string& cubin) {
  check_cu(driver().module_load_data(&module_, cubin.data()), "cuModuleLoadData");
}

LoadedModule::~LoadedModule() {
  if (module_) driver().module_unload(module_);
}

CUfunction LoadedModule::function(const std::string& name) const {
  CUfunction f = nullptr;
  check_cu(driver().module_get_function(&f, module_, name.c_str()), "cuModuleGetFunction " + name);
  return f;
}

KernelResources LoadedModule::resources(const std::string& name, int threads_per_block,
                                        int dynamic_shared_bytes) const {
  const CUfunction f = function(name);
  KernelResources r;
  r.kernel = name;
  r.threads_per_block = threads_per_block;
  r.dynamic_shared_bytes = dynamic_shared_bytes;
  check_cu(driver().func_get_attribute(&r.registers_per_thread, CU_FUNC_ATTRIBUTE_NUM_REGS, f),
           "registers");
  check_cu(
      driver().func_get_attribute(&r.static_shared_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f),
      "shared");
  check_cu(driver().func_get_attribute(&r.local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f),
           "local");
  r.built_for = current_device_arch();
  return r;
}

void LoadedModule::set_max_dynamic_shared(const std::string& name, int bytes) const {
  check_cu(driver().func_set_attribute(function(name),
                                       CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes),
           "cuFuncSetAttribute max dynamic shared " + std::to_string(bytes) + " for " + name);
}

void LoadedModule::launch(CUfunction f, dim3 grid, dim3 block, unsigned shared_bytes,
                          cudaStream_t stream, void** args, LaunchOrder order) const {
#if CUDA_VERSION >= 12000
  if (order == LaunchOrder::programmatic && driver().launch_kernel_ex) {
    CUlaunchAttribute attribute{};
    attribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attribute.value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig config{};
    config.gridDimX = grid.x;
    config.gridDimY = grid.y;
    config.gridDimZ = grid.z;
    config.blockDimX = block.x;
    config.blockDimY = block.y;
    config.blockDimZ = block.z;
    config.sharedMemBytes = shared_bytes;
    config.hStream = reinterpret_cast<CUstream>(stream);
    config.attrs = &attribute;
    config.numAttrs = 1;
    check_cu(driver().launch_kernel_ex(&config, f, args, nullptr), "cuLaunchKernelEx");
    return;
  }
#else
  (void)order;
#endif
  check_cu(driver().launch_kernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                  shared_bytes, reinterpret_cast<CUstream>(stream), args, nullptr),
           "cuLaunchKernel");
}

void LoadedModule::launch_cooperative(CUfunction f, dim3 grid, dim3 block, unsigned shared_bytes,
                                      cudaStream_t stream, void** args) const {
  check_cu(
      driver().launch_cooperative_kernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                         shared_bytes, reinterpret_cast<CUstream>(stream), args),
      "cuLaunchCooperativeKernel");
}

int LoadedModule::max_active_blocks_per_sm(CUfunction f, int threads_per_block,
                                           int dynamic_shared_bytes) const {
  int blocks = 0;
  check_cu(
      driver().occupancy_blocks(&blocks, f, threads_per_block, std::size_t(dynamic_shared_bytes)),
      "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  return blocks;
}

}  // namespace flowtune::cuda
