// A standalone driver for the fuzz harnesses in builds without libFuzzer (GCC, the normal
// CI build): runs LLVMFuzzerTestOneInput on every file of the given corpus folders or files,
// then on N seeded pseudo-random mutations of them (bit flips, byte changes, truncations,
// insertions, deletions, duplications, splices). A finding crashes the process, as under
// libFuzzer. Usage: fuzz_replay_<name> [--mutations N] [--seed S] [--max-len L] PATH...
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// One random edit of `b`; `other` is a second corpus input for splicing.
void mutate_once(Bytes& b, const Bytes& other, std::mt19937_64& rng, std::size_t max_len) {
  auto pick = [&](std::size_t n) { return n == 0 ? 0 : std::size_t(rng() % n); };
  static const std::uint8_t kInteresting[] = {0, 1, 0x7f, 0x80, 0xff, 0xfe, 0x10, 0x20};
  switch (rng() % 8) {
    case 0:  // flip a bit
      if (!b.empty()) b[pick(b.size())] ^= std::uint8_t(1u << (rng() % 8));
      break;
    case 1:  // set a byte to a random or interesting value
      if (!b.empty()) b[pick(b.size())] = rng() % 2 ? std::uint8_t(rng()) : kInteresting[rng() % 8];
      break;
    case 2:  // truncate
      b.resize(pick(b.size() + 1));
      break;
    case 3: {  // insert random bytes
      const std::size_t n = 1 + pick(16), at = pick(b.size() + 1);
      Bytes ins(n);
      for (auto& c : ins) c = std::uint8_t(rng());
      b.insert(b.begin() + std::ptrdiff_t(at), ins.begin(), ins.end());
      break;
    }
    case 4: {  // delete a range
      if (b.empty()) break;
      const std::size_t at = pick(b.size()), n = 1 + pick(std::min<std::size_t>(b.size() - at, 64));
      b.erase(b.begin() + std::ptrdiff_t(at), b.begin() + std::ptrdiff_t(at + n));
      break;
    }
    case 5: {  // duplicate a range
      if (b.empty()) break;
      const std::size_t at = pick(b.size()), n = 1 + pick(std::min<std::size_t>(b.size() - at, 64));
      const Bytes copy(b.begin() + std::ptrdiff_t(at), b.begin() + std::ptrdiff_t(at + n));
      b.insert(b.begin() + std::ptrdiff_t(pick(b.size() + 1)), copy.begin(), copy.end());
      break;
    }
    case 6: {  // splice: a prefix of b and a suffix of other
      const std::size_t cut = pick(b.size() + 1), from = pick(other.size() + 1);
      b.resize(cut);
      b.insert(b.end(), other.begin() + std::ptrdiff_t(from), other.end());
      break;
    }
    default: {  // overwrite a 4-byte field with an extreme integer (sizes, dimensions)
      if (b.size() < 4) break;
      static const std::uint32_t kExtreme[] = {0,          1,      0x7fffffff, 0x80000000,
                                               0xffffffff, 0x8000, 0x10000,    0x01000000};
      const std::uint32_t v = kExtreme[rng() % 8];
      const std::size_t at = pick(b.size() - 3);
      for (int k = 0; k < 4; ++k)
        b[at + std::size_t(k)] = std::uint8_t(v >> (8 * (rng() % 2 ? k : 3 - k)));
      break;
    }
  }
  if (b.size() > max_len) b.resize(max_len);
}

}  // namespace

int main(int argc, char** argv) {
  long mutations = 0;
  std::uint64_t seed = 1;
  std::size_t max_len = 1 << 20;
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--mutations" || arg == "--seed" || arg == "--max-len") && i + 1 < argc) {
      const auto value = std::strtoull(argv[++i], nullptr, 10);
      if (arg == "--mutations") mutations = long(value);
      if (arg == "--seed") seed = value;
      if (arg == "--max-len") max_len = std::size_t(value);
    } else if (std::filesystem::is_directory(arg)) {
      for (const auto& e : std::filesystem::directory_iterator(arg))
        if (e.is_regular_file()) files.push_back(e.path());
    } else if (std::filesystem::is_regular_file(arg)) {
      files.emplace_back(arg);
    } else {
      std::fprintf(stderr, "%s: no such file or folder, or a bad option: %s\n", argv[0], argv[i]);
      return 2;
    }
  }
  std::sort(files.begin(), files.end());  // the same order, so a seed reproduces
  if (files.empty()) {
    std::fprintf(stderr, "%s: no inputs (usage: %s [--mutations N] [--seed S] PATH...)\n", argv[0],
                 argv[0]);
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<Bytes> corpus;
  for (const auto& f : files) {
    corpus.push_back(read_file(f));
    LLVMFuzzerTestOneInput(corpus.back().data(), corpus.back().size());
  }
  std::mt19937_64 rng(seed);
  for (long m = 0; m < mutations; ++m) {
    Bytes b = corpus[rng() % corpus.size()];
    const Bytes& other = corpus[rng() % corpus.size()];
    const int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits; ++e) mutate_once(b, other, rng, max_len);
    LLVMFuzzerTestOneInput(b.data(), b.size());
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: %zu corpus inputs + %ld mutations (seed %llu) in %.2f s, no crash\n", argv[0],
              corpus.size(), mutations, static_cast<unsigned long long>(seed), s);
  return 0;
}
