#include <cstdio>

int main() {
  std::puts("flowtune");
  return 0;
}
