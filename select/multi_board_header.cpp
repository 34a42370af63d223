#include "select/multi_board_header.hpp"

#include <cctype>
#include <set>
#include <sstream>
#include <stdexcept>

#include "select/tuned_header.hpp"

namespace flowtune {
namespace {

std::string identifier(const std::string& board) {
  std::string id;
  for (char c : board) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "b_" + id;
  return id;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

}  // namespace

std::string BoardChoice::label() const {
  return width > 0 ? board + "@" + std::to_string(width) + "x" + std::to_string(height) : board;
}

std::string multi_board_header_text(const std::vector<BoardChoice>& boards,
                                    const Objective& objective) {
  if (boards.empty()) throw std::invalid_argument("multi_board_header_text: no board");
  std::set<std::string> seen;
  for (const BoardChoice& b : boards)
    if (!seen.insert(b.label()).second)
      throw std::invalid_argument("multi_board_header_text: board '" + b.label() + "' given twice");
  std::vector<TunedHeaderParts> parts;
  std::ostringstream h;
  h << "// Tuned configurations for boards";
  for (const BoardChoice& b : boards)
    h << ' ' << b.label()
      << (b.cc_major ? " (sm_" + std::to_string(b.cc_major * 10 + b.cc_minor) + ")"
                     : std::string(" (cpu)"));
  h << ", exported by flowtune (tune export) from its database.\n"
    << "// Objective: " << objective.name << ". Device code: the FT_* macros of the arch being\n"
    << "// compiled (__CUDA_ARCH__). Host code: flowtune::tuned::for_device(major, minor), or\n"
    << "// for_size(major, minor, width, height) for the size nearest to the frames'.\n";
  for (const BoardChoice& b : boards) {
    parts.push_back(tuned_header_parts(b.config, b.board, objective));
    h << tuned_config_marker(b.label()) << parts.back().config_json << '\n';
  }
  h << "#pragma once\n\n#include <cmath>\n\n";
  for (std::size_t i = 0; i < boards.size(); ++i)
    h << "namespace flowtune::tuned::" << identifier(boards[i].label()) << " {\n"
      << parts[i].constants << "}  // namespace flowtune::tuned::" << identifier(boards[i].label())
      << "\n\n";
  h << "namespace flowtune::tuned {\n\n"
    << "/// One board of this header.\n"
    << "struct BoardConfig {\n  const char* board;\n  int cc_major, cc_minor;  // 0.0: a CPU "
       "board\n  int width, height;  // the frame size tuned at; 0 x 0: the inputs' own\n"
       "  const char* variant;\n  const char* precision;\n  const char* config_json;\n};\n\n"
    << "inline constexpr BoardConfig kBoards[] = {\n";
  for (std::size_t i = 0; i < boards.size(); ++i) {
    const BoardChoice& b = boards[i];
    h << "    {" << quoted(b.board) << ", " << b.cc_major << ", " << b.cc_minor << ", " << b.width
      << ", " << b.height << ", " << quoted(b.config.config.variant) << ", "
      << quoted(b.config.config.precision) << ", " << quoted(parts[i].config_json) << "},\n";
  }
  h << "};\n\n"
    << "/// The config of a device of compute capability major.minor (cudaDeviceProp), the first\n"
    << "/// board of that capability; nullptr when no board of this header has it.\n"
    << "inline const BoardConfig* for_device(int major, int minor) {\n"
    << "  for (const BoardConfig& b : kBoards)\n"
    << "    if (b.cc_major == major && b.cc_minor == minor && major > 0) return &b;\n"
    << "  return nullptr;\n}\n\n"
    << "/// The entry of compute capability major.minor (0.0: a CPU board) tuned at the size\n"
    << "/// nearest to width x height: |ln(pixel ratio)| + 1e-3 |ln(aspect ratio)|, the first\n"
    << "/// on a tie; an entry of unknown size only when none has one. nullptr: no such board.\n"
    << "inline const BoardConfig* for_size(int major, int minor, int width, int height) {\n"
    << "  const BoardConfig* best = nullptr;\n"
    << "  double best_distance = 0;\n"
    << "  for (const BoardConfig& b : kBoards) {\n"
    << "    if (b.cc_major != major || b.cc_minor != minor) continue;\n"
    << "    double d = 1e300;\n"
    << "    if (b.width > 0 && b.height > 0 && width > 0 && height > 0) {\n"
    << "      const double area = std::log(double(b.width) * b.height / (double(width) * "
       "height));\n"
    << "      const double aspect = std::log(double(b.width) / b.height * height / width);\n"
    << "      d = std::fabs(area) + 1e-3 * std::fabs(aspect);\n"
    << "    }\n"
    << "    if (!best || d < best_distance) {\n"
    << "      best = &b;\n"
    << "      best_distance = d;\n"
    << "    }\n"
    << "  }\n"
    << "  return best;\n}\n\n"
    << "}  // namespace flowtune::tuned\n";
  std::set<int> archs;
  bool open = false;
  for (std::size_t i = 0; i < boards.size(); ++i) {
    const int cc = boards[i].cc_major * 100 + boards[i].cc_minor * 10;
    if (boards[i].cc_major == 0 || !archs.insert(cc).second) continue;
    h << (open ? "#elif" : "\n#if") << " defined(__CUDA_ARCH__) && __CUDA_ARCH__ == " << cc
      << "  // " << boards[i].board << '\n'
      << parts[i].macros;
    open = true;
  }
  if (open) h << "#endif\n";
  return h.str();
}

}  // namespace flowtune
