// Fuzz harness: the messages of the worker protocol (tuner/worker.hpp, tuner/store_worker.hpp):
// a distributed task's body (parse_task_request, which holds a worker request line,
// parse_worker_request) on arbitrary text. Every outcome must be a request or a
// std::invalid_argument; an accepted task must survive task_request_json -> parse with the
// same JSON (what the coordinator stores is what a worker reads).
#include <cstdint>
#include <stdexcept>
#include <string>

#include "tuner/store_worker.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)flowtune::parse_worker_request(text);
  } catch (const std::invalid_argument&) {
    // documented: a missing or malformed field
  }
  flowtune::TaskRequest task;
  try {
    task = flowtune::parse_task_request(text);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const std::string again = flowtune::task_request_json(task);
  try {
    if (flowtune::task_request_json(flowtune::parse_task_request(again)) != again) __builtin_trap();
  } catch (const std::invalid_argument&) {
    __builtin_trap();  // a task accepted once must read back
  }
  return 0;
}
