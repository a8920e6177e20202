#pragma once
// fixed_vector<T, N>: a vector of at most N elements stored inline, the container of shapes and
// strides (rank <= max_dims). It offers the part of std::vector's interface that shapes need.
// Growing past N throws shape_error naming the rank instead of reallocating: a longer shape could
// never reach a kernel anyway. Kept free of heavy includes: the core array header depends on it.
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <type_traits>
#include <utility>

namespace clarray {

namespace detail {
// Throws shape_error: "... of <requested> dimensions: at most <capacity> are supported".
[[noreturn]] void throw_rank_exceeded(std::size_t requested, std::size_t capacity);
} // namespace detail

// A vector of at most N elements stored inline, with std::vector's interface for shapes; growing
// past N throws shape_error.
template <class T, std::size_t N> class fixed_vector {
    // Elements are overwritten in place and never destroyed one by one.
    static_assert(std::is_trivially_destructible_v<T>,
                  "fixed_vector holds extents, strides and similar plain values");

public:
    // The member types of std::vector<T>; iterators are pointers.
    //@{
    using value_type = T;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = T&;
    using const_reference = const T&;
    using pointer = T*;
    using const_pointer = const T*;
    using iterator = T*;
    using const_iterator = const T*;
    using reverse_iterator = std::reverse_iterator<iterator>;
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;
    //@}

    // An empty vector.
    fixed_vector() noexcept = default;
    // n value-initialised elements.
    explicit fixed_vector(size_type n) { assign(n, T()); }
    // n copies of value.
    fixed_vector(size_type n, const T& value) { assign(n, value); }
    // The listed elements.
    fixed_vector(std::initializer_list<T> values) { append(values.begin(), values.end()); }
    // The elements of [first, last), converted to T.
    template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
    fixed_vector(It first, It last) {
        append(first, last);
    }
    // Copies only the elements in use (the tail of the inline storage is never read).
    fixed_vector(const fixed_vector& other) noexcept { copy_from(other); }
    // Copies other's elements.
    fixed_vector& operator=(const fixed_vector& other) noexcept {
        copy_from(other);
        return *this;
    }
    // Replaces the elements with the listed ones.
    fixed_vector& operator=(std::initializer_list<T> values) {
        assign(values.begin(), values.end());
        return *this;
    }

    // Replaces the elements with n copies of value.
    void assign(size_type n, const T& value) {
        check_capacity(n);
        for (size_type i = 0; i < n; ++i)
            data_[i] = value;
        size_ = n;
    }
    // Leaves this vector unchanged when [first, last) does not fit.
    template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
    void assign(It first, It last) {
        fixed_vector values;
        values.append(first, last);
        *this = values;
    }

    // Number of elements.
    size_type size() const noexcept { return size_; }
    // Whether there are no elements.
    bool empty() const noexcept { return size_ == 0; }
    // The most elements the vector holds (N).
    //@{
    static constexpr size_type capacity() noexcept { return N; }
    static constexpr size_type max_size() noexcept { return N; }
    //@}

    // Pointer to the first element.
    //@{
    T* data() noexcept { return data_; }
    const T* data() const noexcept { return data_; }
    //@}
    // Element i (unchecked).
    //@{
    T& operator[](size_type i) noexcept { return data_[i]; }
    const T& operator[](size_type i) const noexcept { return data_[i]; }
    //@}
    // The first element (the vector must not be empty).
    //@{
    T& front() noexcept { return data_[0]; }
    const T& front() const noexcept { return data_[0]; }
    //@}
    // The last element (the vector must not be empty).
    //@{
    T& back() noexcept { return data_[size_ - 1]; }
    const T& back() const noexcept { return data_[size_ - 1]; }
    //@}

    // Iterators over the elements, forward and reverse, as std::vector's.
    //@{
    iterator begin() noexcept { return data_; }
    const_iterator begin() const noexcept { return data_; }
    const_iterator cbegin() const noexcept { return data_; }
    iterator end() noexcept { return data_ + size_; }
    const_iterator end() const noexcept { return data_ + size_; }
    const_iterator cend() const noexcept { return data_ + size_; }
    reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
    const_reverse_iterator rbegin() const noexcept { return const_reverse_iterator(end()); }
    reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
    const_reverse_iterator rend() const noexcept { return const_reverse_iterator(begin()); }
    //@}

    // Appends value (shape_error when the vector is full).
    void push_back(const T& value) {
        check_capacity(size_ + 1);
        data_[size_++] = value;
    }
    // Appends T(args...) and returns it (shape_error when the vector is full).
    template <class... A> T& emplace_back(A&&... args) {
        push_back(T(static_cast<A&&>(args)...));
        return back();
    }
    // Removes the last element (the vector must not be empty).
    void pop_back() noexcept { --size_; }
    // Removes every element.
    void clear() noexcept { size_ = 0; }
    // Makes the size n, appending value-initialised elements or copies of value (shape_error
    // when n > N).
    //@{
    void resize(size_type n) { resize(n, T()); }
    void resize(size_type n, const T& value) {
        check_capacity(n);
        for (size_type i = size_; i < n; ++i)
            data_[i] = value;
        size_ = n;
    }
    //@}
    // Inserts value before pos and returns its position (shape_error when the vector is full).
    iterator insert(const_iterator pos, const T& value) {
        const size_type at = static_cast<size_type>(pos - data_);
        const T copy = value; // value may refer to an element that moves below
        check_capacity(size_ + 1);
        for (size_type i = size_; i > at; --i)
            data_[i] = data_[i - 1];
        data_[at] = copy;
        ++size_;
        return data_ + at;
    }
    // Removes the element at pos, or those of [first, last); returns the position after them.
    //@{
    iterator erase(const_iterator pos) noexcept { return erase(pos, pos + 1); }
    iterator erase(const_iterator first, const_iterator last) noexcept {
        const size_type at = static_cast<size_type>(first - data_);
        const size_type count = static_cast<size_type>(last - first);
        for (size_type i = at; i + count < size_; ++i)
            data_[i] = data_[i + count];
        size_ -= count;
        return data_ + at;
    }
    //@}

private:
    template <class It> void append(It first, It last) {
        for (; first != last; ++first)
            push_back(static_cast<T>(*first));
    }
    static void check_capacity(size_type n) {
        if (n > N) detail::throw_rank_exceeded(n, N);
    }
    void copy_from(const fixed_vector& other) noexcept {
        size_ = other.size_;
        for (size_type i = 0; i < size_; ++i)
            data_[i] = other.data_[i];
    }

    T data_[N];
    size_type size_ = 0;
};

// Element-wise equality of two shapes or stride lists.
template <class T, std::size_t N>
bool operator==(const fixed_vector<T, N>& a, const fixed_vector<T, N>& b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i])) return false;
    return true;
}
// Element-wise inequality of two shapes or stride lists.
template <class T, std::size_t N>
bool operator!=(const fixed_vector<T, N>& a, const fixed_vector<T, N>& b) noexcept {
    return !(a == b);
}

namespace detail {
template <class C, class = void> struct is_sequence : std::false_type {};
template <class C>
struct is_sequence<C, std::void_t<decltype(std::declval<const C&>().size()),
                                  decltype(std::declval<const C&>().begin())>> : std::true_type {};
template <class C> struct is_fixed_vector : std::false_type {};
template <class T, std::size_t N> struct is_fixed_vector<fixed_vector<T, N>> : std::true_type {};
template <class C>
inline constexpr bool is_other_sequence_v = is_sequence<C>::value && !is_fixed_vector<C>::value;

template <class A, class B> bool equal_sequences(const A& a, const B& b) {
    if (a.size() != b.size()) return false;
    auto j = b.begin();
    for (auto i = a.begin(); i != a.end(); ++i, ++j)
        if (!(*i == *j)) return false;
    return true;
}
} // namespace detail

// Against other sequences (std::vector, xtensor's shapes), as xt::svector compared.
template <class T, std::size_t N, class C, class = std::enable_if_t<detail::is_other_sequence_v<C>>>
bool operator==(const fixed_vector<T, N>& a, const C& b) {
    return detail::equal_sequences(a, b);
}
// Equality with another sequence (std::vector, std::array, an xtensor shape).
template <class T, std::size_t N, class C, class = std::enable_if_t<detail::is_other_sequence_v<C>>>
bool operator==(const C& a, const fixed_vector<T, N>& b) {
    return detail::equal_sequences(a, b);
}
// Inequality with another sequence.
template <class T, std::size_t N, class C, class = std::enable_if_t<detail::is_other_sequence_v<C>>>
bool operator!=(const fixed_vector<T, N>& a, const C& b) {
    return !detail::equal_sequences(a, b);
}
// Inequality with another sequence.
template <class T, std::size_t N, class C, class = std::enable_if_t<detail::is_other_sequence_v<C>>>
bool operator!=(const C& a, const fixed_vector<T, N>& b) {
    return !detail::equal_sequences(a, b);
}

} // namespace clarray
