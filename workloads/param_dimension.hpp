// One tune dimension of a parameter on a target: values, ranges (linear or log, real or
// integer) or a set of a categorical parameter's choices, enumerated at a stated resolution so
// that every value is a short decimal and a config's key stays canonical.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace flowtune {

struct ParamSpec;

/// A range of one dimension: [lo, hi] on a linear or log scale, real or integer, enumerated
/// at its resolution (the mixed-radix space needs a count; `tune space` shows the range).
/// Enumeration (values()):
/// - linear with step > 0: lo, lo + step, ... <= hi, each rounded to the decimals of step
///   (0.5..0.9 step 0.05: 0.5, 0.55, ..., 0.9, each the double nearest its decimal text);
/// - linear or log with count > 0: count points spread evenly (geometrically for log) over
///   [lo, hi], ends exact, each rounded to `digits` significant digits;
/// - log with count 0: every number of `digits` significant digits in [lo, hi]
///   (5..100, 2 digits: 5, 6, ..., 99, 100);
/// integer ranges round each value to a whole number; repeated values are dropped.
struct ParamRange {
  enum class Scale { linear, log };
  double lo = 0, hi = 0;
  Scale scale = Scale::linear;
  bool integer = false;
  double step = 0;  ///< linear: the resolution (0 with count > 0)
  int count = 0;    ///< points spread over [lo, hi]; 0 = every value at the resolution
  int digits = 2;   ///< significant digits of log values and of counted points

  /// The values, ascending.
  std::vector<double> values() const;
  /// "0.50..0.90 step 0.05", "5..100 log, 2 significant digits", "0.05..0.8 log, 5 points",
  /// "3..8" (an integer range of step 1).
  std::string text() const;
  /// nullopt when the range can be enumerated, else why not ("a log range needs lo > 0").
  std::optional<std::string> invalid_reason() const;
};

/// `value` rounded to `digits` significant digits, as the double nearest its decimal text
/// (rounded(0.0695, 2) == 0.07, 1234 -> 1200); 0 and non-finite values unchanged.
double round_significant(double value, int digits);
/// `value` rounded to the decimals of `step` (step 0.05: 0.55000000000000004
/// -> 0.55, the double strtod gives for "0.55"); step <= 0 leaves value unchanged.
double round_to_step(double value, double step);

/// The dimension of one parameter: listed values and ranges, in the order given (a union:
/// n_scales 0 or 3..8 is the value 0 and the integer range 3..8), enumerated once at
/// construction. Reads like the vector of its values (begin/end/size/front).
class ParamDimension {
 public:
  /// One part: a listed value or a range (categorical values are choice indices).
  struct Part {
    std::optional<double> value;
    ParamRange range;
  };
  ParamDimension() = default;
  /// A list of values.
  ParamDimension(std::initializer_list<double> values);
  ParamDimension(const std::vector<double>& values);  // NOLINT: a list reads as a dimension
  /// One range. Throws std::invalid_argument when the range cannot be enumerated.
  ParamDimension(const ParamRange& range);  // NOLINT
  /// A linear real range: lo..hi in steps of step (zoom 0.5..0.9 step 0.05: 9 values).
  static ParamDimension linear(double lo, double hi, double step);
  /// An integer range lo..hi in steps of step (n_warpings 1..6: 6 values).
  static ParamDimension integers(double lo, double hi, double step = 1);
  /// A log range: `count` points geometrically spread over [lo, hi] (count 0: every value of
  /// `digits` significant digits), rounded to `digits` significant digits, whole numbers when
  /// integer (iterations 5..100, 8 points: 5, 7, 12, 18, 27, 42, 65, 100).
  static ParamDimension log(double lo, double hi, int count, bool integer, int digits = 2);
  /// This dimension followed by other's parts (a union, repeated values once).
  ParamDimension operator|(const ParamDimension& other) const;
  /// The same dimension, where the target fixes the parameter at `value` when the dimension is
  /// left out of a space (ParamDimension::fixed_value).
  ParamDimension with_fixed_value(double value) const;

  const std::vector<double>& values() const { return values_; }
  const std::vector<Part>& parts() const { return parts_; }
  std::vector<double>::const_iterator begin() const { return values_.begin(); }
  std::vector<double>::const_iterator end() const { return values_.end(); }
  std::size_t size() const { return values_.size(); }
  bool empty() const { return values_.empty(); }
  double front() const { return values_.front(); }
  double operator[](std::size_t k) const { return values_[k]; }
  /// The same values in the same order (ranges and lists alike).
  bool operator==(const std::vector<double>& values) const { return values_ == values; }
  /// True when every part is a listed value (no range).
  bool is_list() const;
  /// The value a target gives the parameter when a space leaves this dimension out (`tune
  /// --no-default-dimensions`, a --param list naming others): the stated value if any
  /// (with_fixed_value), else the ParamSpec default when it lies within the dimension's
  /// values (between the smallest and the largest), else the first value (CUDA's epsilon {0}:
  /// 0, not the CPU default 0.005).
  double fixed_value(const ParamSpec& spec) const;
  /// The parts as text, values by spec (choice names): "0.50..0.90 step 0.05 (9 values)",
  /// "0, 3..8 (7 values)", "0, 5"; a list of values has no count.
  std::string text(const ParamSpec& spec) const;

 private:
  void add(const Part& part);
  std::vector<Part> parts_;
  std::vector<double> values_;
  std::optional<double> fixed_;
};

/// The dimension of --param NAME=TEXT for spec: comma-separated items, each a value (a
/// categorical's choice name or index) or a range
///   LO:HI            an integer range in steps of 1 (integers only)
///   LO:HI:STEP       a linear range in steps of STEP (0.5:0.9:0.05)
///   LO:HI:log        a log range, every value of 2 significant digits (integers: whole ones)
///   LO:HI:log:N      N points spread geometrically (tune search's 0.05:0.8:log:5)
///   LO:HI:lin:N      N points spread evenly
/// (counted points are kept to 12 significant digits); e.g. n_scales=0,3:8 or
/// rof_iterations=0,1:100:log. Throws std::invalid_argument naming the parameter and the
/// problem (not a number, a bad range, a value outside the parameter's range).
ParamDimension parse_param_dimension(const ParamSpec& spec, const std::string& text);

}  // namespace flowtune
