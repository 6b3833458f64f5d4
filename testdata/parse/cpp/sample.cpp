// An LRU cache and a small shape hierarchy, to exercise the C++ grammar.
#include <algorithm>
#include <iostream>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace cache {

template <typename K, typename V>
class LruCache {
public:
    explicit LruCache(std::size_t capacity) : capacity_(capacity) {}

    std::optional<V> get(const K& key) {
        auto it = index_.find(key);
        if (it == index_.end()) {
            return std::nullopt;
        }
        order_.splice(order_.begin(), order_, it->second);
        return it->second->second;
    }

    void put(const K& key, V value) {
        if (auto it = index_.find(key); it != index_.end()) {
            it->second->second = std::move(value);
            order_.splice(order_.begin(), order_, it->second);
            return;
        }
        if (order_.size() == capacity_) {
            index_.erase(order_.back().first);
            order_.pop_back();
        }
        order_.emplace_front(key, std::move(value));
        index_[key] = order_.begin();
    }

    [[nodiscard]] std::size_t size() const noexcept { return order_.size(); }

private:
    std::size_t capacity_;
    std::list<std::pair<K, V>> order_;
    std::unordered_map<K, typename std::list<std::pair<K, V>>::iterator> index_;
};

}  // namespace cache

struct Shape {
    virtual ~Shape() = default;
    virtual double area() const = 0;
    virtual std::string name() const { return "shape"; }
};

struct Circle final : Shape {
    double r;
    explicit Circle(double r) : r{r} {}
    double area() const override { return 3.14159 * r * r; }
    std::string name() const override { return "Kreis"; }
};

class Rect : public Shape {
    double w_, h_;

public:
    Rect(double w, double h) : w_(w), h_(h) {}
    double area() const override { return w_ * h_; }
    friend std::ostream& operator<<(std::ostream& os, const Rect& r) {
        return os << "Rect(" << r.w_ << " x " << r.h_ << ")";
    }
};

template <typename T>
concept HasArea = requires(const T& t) { t.area(); };

template <HasArea... Ts>
double total_area(const Ts&... shapes) {
    return (shapes.area() + ... + 0.0);
}

enum class Color : unsigned char { Red, Green = 5, Blue };

constexpr int square(int x) { return x * x; }

static_assert(square(4) == 16, "constexpr math works");

int main() {
    using namespace std::string_literals;
    cache::LruCache<std::string, int> lru(2);
    lru.put("eins", 1);
    lru.put("zwei"s, 2);
    lru.put(u8"größe", 3);

    std::vector<std::unique_ptr<Shape>> shapes;
    shapes.push_back(std::make_unique<Circle>(1.5));
    shapes.emplace_back(new Rect(2, 3));
    std::sort(shapes.begin(), shapes.end(), [](const auto& a, const auto& b) { return a->area() < b->area(); });

    for (const auto& s : shapes) {
        std::cout << s->name() << ": " << s->area() << '\n';
    }
    auto greeting = R"(Grüße — "raw" \n 🚀)";
    Color c = Color::Green;
    try {
        if (!lru.get("eins")) throw std::runtime_error("evicted");
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
    }
    std::cout << greeting << static_cast<int>(c) << total_area(Circle{1}, Rect{1, 2}) << lru.size() << "\n";
    return 0;
}
