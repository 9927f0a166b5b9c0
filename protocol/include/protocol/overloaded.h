#pragma once

// std::visit with one lambda per alternative: std::visit(Overloaded{[](const A&) {...},
// [](const B&) {...}}, variant). For the protocol's variants and any other.
namespace tengen {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace tengen
