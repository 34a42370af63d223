// The variant registry: every variant registers itself (FLOWTUNE_REGISTER_VARIANTS in its own
// .cpp); all_variants() lists them in listing-rank order.
#include <algorithm>
#include <tuple>

#include "variants/variant.hpp"

namespace flowtune {
namespace {

/// One registered variant and its place in the listing.
struct Entry {
  int rank;
  std::size_t position;  ///< index within its registration
  const Variant* variant;
};

/// Registered entries, kept sorted by (rank, position, name); constructed on first use, so
/// registrations from any translation unit's static initialisers find it.
std::vector<Entry>& entries() {
  static std::vector<Entry> e;
  return e;
}

/// The variants of entries(), rebuilt by register_variants.
std::vector<const Variant*>& listing() {
  static std::vector<const Variant*> v;
  return v;
}

}  // namespace

bool register_variants(int listing_rank, const std::vector<const Variant*>& variants) {
  auto& e = entries();
  for (const Variant* v : variants)
    for (const Entry& existing : e)
      if (existing.variant->name() == v->name()) return false;
  for (std::size_t i = 0; i < variants.size(); ++i) e.push_back({listing_rank, i, variants[i]});
  std::sort(e.begin(), e.end(), [](const Entry& a, const Entry& b) {
    return std::make_tuple(a.rank, a.position, a.variant->name()) <
           std::make_tuple(b.rank, b.position, b.variant->name());
  });
  auto& l = listing();
  l.clear();
  for (const Entry& entry : e) l.push_back(entry.variant);
  return true;
}

const std::vector<const Variant*>& all_variants() {
  return listing();
}

const Variant* find_variant(const std::string& name) {
  for (const Variant* v : all_variants())
    if (v->name() == name) return v;
  return nullptr;
}

const FlowVariant* find_flow_variant(const std::string& name) {
  return dynamic_cast<const FlowVariant*>(find_variant(name));
}

}  // namespace flowtune
