#include <iostream>
#include <memory>
#include <vector>
#include <string>

namespace shapes {

class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
    virtual std::string name() const { return "shape"; }
};

class Circle : public Shape {
public:
    explicit Circle(double r) : r_(r) {}
    double area() const override { return 3.14159 * r_ * r_; }
    std::string name() const override { return "circle"; }
private:
    double r_;
};

class Rect : public Shape {
public:
    Rect(double w, double h) : w_(w), h_(h) {}
    double area() const override { return w_ * h_; }
private:
    double w_, h_;
};

template <typename T>
T largest(const std::vector<T>& xs) {
    T best = xs[0];
    for (const auto& x : xs) {
        if (x > best) {
            best = x;
        }
    }
    return best;
}

}  // namespace shapes

int main() {
    std::vector<std::unique_ptr<shapes::Shape>> all;
    all.push_back(std::make_unique<shapes::Circle>(1.0));
    all.push_back(std::make_unique<shapes::Rect>(2.0, 3.0));
    double total = 0;
    for (auto& s : all) {
        total += s->area();
        std::cout << s->name() << ": " << s->area() << std::endl;
    }
    std::vector<int> v{1, 5, 3};
    std::cout << shapes::largest(v) << std::endl;
    if (total > 10) {
        return 1;
    }
    return 0;
}
