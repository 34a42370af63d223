// Small text-formatting helpers shared by the report writers (CSV, Markdown, SVG, C++).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "select/text_file.hpp"

namespace flowtune::reports::detail {

using flowtune::write_text_file;  // select/text_file.hpp

/// Shortest decimal text that reads back as exactly `value` ("0.15", "1e-05", "12", "300");
/// "" for NaN, "inf"/"-inf" for infinities.
std::string shortest_double(double value);
/// `value` with `decimals` digits after the point ("12.346"); "n/a" for NaN or nullopt.
std::string fixed(double value, int decimals);
std::string fixed(const std::optional<double>& value, int decimals);
/// One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF; text starting
/// with = + - @ tab or CR that is not a number gets a leading ' (no spreadsheet formulas).
std::string csv_field(const std::string& text);
/// Fields joined by commas, each through csv_field, ending with "\n".
std::string csv_row(const std::vector<std::string>& fields);
/// Text with &, <, >, " escaped for XML/SVG content and attributes.
std::string xml_escape(const std::string& text);
/// Text safe in a Markdown table cell and as HTML: | * [ ] backslash-escaped, newlines as
/// spaces, & < > ` as HTML entities (so <img onerror> in a folder name stays text).
std::string md_cell(const std::string& text);
/// `text` with every occurrence of `from` (ASCII case-insensitive match) replaced by `to`.
std::string replace_all_icase(const std::string& text, const std::string& from,
                              const std::string& to);

}  // namespace flowtune::reports::detail
