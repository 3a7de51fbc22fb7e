// The registry's machinery: type lists of entries, walked at compile time (for_each), or by a
// name or a stable id at run time (with_name, with_id), and the metadata every entry carries.
// Not API: catalog/registry.hpp and formats.hpp are built on it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "flipcheck/law.hpp"

namespace flipcheck::registry {

// ---- the machinery ------------------------------------------------------------------------------

// A string usable as a template argument, so that one registry line holds all of an entry's text.
template <std::size_t N>
struct text {
    char chars[N]{};
    constexpr text(const char (&s)[N]) noexcept {  // NOLINT: implicit on purpose, for "..." arguments
        for (std::size_t i = 0; i < N; ++i) chars[i] = s[i];
    }
    constexpr std::string_view view() const noexcept { return {chars, N - 1}; }
};

template <class... E>
struct list {
    static constexpr std::size_t size = sizeof...(E);
};

namespace detail {
template <class... L>
struct concat;
template <>
struct concat<> {
    using type = list<>;
};
template <class... A>
struct concat<list<A...>> {
    using type = list<A...>;
};
template <class... A, class... B, class... Rest>
struct concat<list<A...>, list<B...>, Rest...> {
    using type = typename concat<list<A..., B...>, Rest...>::type;
};
}  // namespace detail
template <class... L>
using concat = typename detail::concat<L...>::type;

// f.template operator()<E>() for each entry E of the list, in order.
template <class List, class Fn>
constexpr void for_each(Fn&& f) {
    [&]<class... E>(list<E...>*) { (f.template operator()<E>(), ...); }(static_cast<List*>(nullptr));
}

// Calls f.template operator()<E>() for the entry named `name` (or with id `id`); false if none.
template <class List, class Fn>
constexpr bool with_name(std::string_view name, Fn&& f) {
    bool found = false;
    for_each<List>([&]<class E>() {
        if (!found && E::name == name) {
            found = true;
            f.template operator()<E>();
        }
    });
    return found;
}
template <class List, class Fn>
constexpr bool with_id(std::uint8_t id, Fn&& f) {
    bool found = false;
    for_each<List>([&]<class E>() {
        if (!found && E::id == id) {
            found = true;
            f.template operator()<E>();
        }
    });
    return found;
}

// Whether format F is in a list of format entries (the formats a family exists on).
template <class On, class F>
inline constexpr bool has_format = []<class... E>(list<E...>*) {
    return (std::is_same_v<typename E::type, F> || ...);
}(static_cast<On*>(nullptr));

template <class List, class T>
inline constexpr bool contains = []<class... E>(list<E...>*) {
    return (std::is_same_v<E, T> || ...);
}(static_cast<List*>(nullptr));

template <class List>
constexpr bool ids_unique() {
    return []<class... E>(list<E...>*) {
        constexpr std::uint8_t ids[] = {E::id..., 0};
        for (std::size_t i = 0; i < sizeof...(E); ++i)
            for (std::size_t j = i + 1; j < sizeof...(E); ++j)
                if (ids[i] == ids[j]) return false;
        return true;
    }(static_cast<List*>(nullptr));
}

enum class kind : std::uint8_t { format, mapping, mapping_mutant, value_reducer, arg_reducer, value_mutant, arg_mutant, scaling, scaling_mutant,
                                 key, key_mutant };
constexpr std::string_view to_string(kind k) noexcept {
    constexpr std::string_view names[] = {"format",  "mapping",      "mapping mutant", "value reducer",
                                          "arg reducer", "value mutant", "arg mutant", "scaling subject", "scaling mutant",
                                          "canonical key", "key mutant"};
    return names[std::size_t(k)];
}

// An entry's metadata at run time, for listings, reports and the docs.
struct about {
    std::uint8_t id;
    std::string_view name;
    kind what;
    std::string_view origin, description;
    std::optional<law_id> killed_by;  // mutants: the law expected to kill it
};

template <std::uint8_t Id, class F, text Origin, text Description>
struct format_entry {
    static constexpr std::uint8_t id = Id;
    using type = F;
    static constexpr std::string_view name = F::name;
    static constexpr kind what = kind::format;
    static constexpr about info{Id, F::name, kind::format, Origin.view(), Description.view(), std::nullopt};
};

}  // namespace flipcheck::registry
