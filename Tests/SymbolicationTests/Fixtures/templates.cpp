#include <vector>
#include <map>
#include <string>
#include <algorithm>
#include <cstdio>
namespace geo {
template <typename T> struct Vec { T x, y; Vec operator+(const Vec& o) const { return {x + o.x, y + o.y}; } };
template <typename T> T dot(const Vec<T>& a, const Vec<T>& b) { return a.x * b.x + a.y * b.y; }
class Shape { public: virtual ~Shape() {} virtual double area() const = 0; };
class Rect : public Shape { double w, h; public: Rect(double a, double b) : w(a), h(b) {} double area() const override { return w * h; } };
}
int main(int argc, char** argv) {
  std::vector<geo::Vec<int>> v;
  for (int i = 0; i < argc * 100; i++) v.push_back({i, i * 2});
  std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return geo::dot(a, a) > geo::dot(b, b); });
  std::map<std::string, double> m;
  geo::Rect r(argc, 2.0);
  m["x"] = r.area();
  for (auto& p : v) m[std::to_string(p.x)] += geo::dot(p, p + p);
  std::printf("%zu\n", m.size());
}
