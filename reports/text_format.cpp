#include "reports/text_format.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace flowtune::reports::detail {

std::string shortest_double(double value) {
  if (std::isnan(value)) return "";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {  // 300, not 3e+02
    std::snprintf(buf, sizeof buf, "%.0f", value);
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  return buf;
}

std::string fixed(double value, int decimals) {
  return fixed_decimals(value, decimals);
}

std::string fixed(const std::optional<double>& value, int decimals) {
  return value ? fixed(*value, decimals) : std::string("n/a");
}

std::string csv_field(const std::string& raw) {
  // A spreadsheet runs a cell that starts with = + - @ (or tab, CR) as a formula: such text
  // (not a number) gets a leading apostrophe (OWASP "CSV injection").
  std::string text = raw;
  if (!text.empty() && std::string("=+-@\t\r").find(text.front()) != std::string::npos) {
    char* end = nullptr;
    std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) text = "'" + text;
  }
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_row(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    out += csv_field(fields[i]);
  }
  return out + "\n";
}

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string md_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {  // data (folder names, commands) must not become HTML or Markdown markup
      case '|':
        out += "\\|";
        break;
      case '\n':
      case '\r':
        out += ' ';
        break;
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '`':
        out += "&#96;";
        break;
      case '*':
        out += "\\*";
        break;
      case '[':
        out += "\\[";
        break;
      case ']':
        out += "\\]";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string replace_all_icase(const std::string& text, const std::string& from,
                              const std::string& to) {
  const auto lower = [](std::string t) {
    for (char& c : t)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return t;
  };
  const std::string hay = lower(text), needle = lower(from);
  std::string out;
  std::size_t start = 0;
  for (auto pos = hay.find(needle); pos != std::string::npos; pos = hay.find(needle, start)) {
    out.append(text, start, pos - start).append(to);
    start = pos + needle.size();
  }
  return out.append(text, start, std::string::npos);
}

}  // namespace flowtune::reports::detail
