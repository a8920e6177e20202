#!/usr/bin/env bash
# Checks that the folders of include/clarray/ (and src/, which mirrors them) are layers with one
# dependency direction. A file in include/clarray/X/ or src/X/ belongs to layer X; it may include
# headers of its own layer and of the layers listed for X in LAYERS below, nothing else. Besides the
# includes it looks for the upward edges an include check alone misses: a forward declaration of
# a class of a layer it may not use, a free function declared in a lower layer's header but
# defined in a higher layer's source (a call upward through a declaration), and a member of a
# lower layer's class defined outside the class in a higher layer (Class::name( or
# Class<...>::name(, constructors, destructors and operators too), unless ALLOWED_MEMBERS lists
# that class and layer.
#
# Usage: scripts/check-layers.sh [ROOT]       check the tree at ROOT (default: this repository)
#        scripts/check-layers.sh --self-test  check the checker on small made-up trees
# Exit status 0: no forbidden edge; 1: forbidden edges or files outside the table (each printed
# as file:line: message).
set -euo pipefail

# Each layer (bottom first) and the layers it may use besides itself. A new folder is one line.
LAYERS='
runtime   -
types     runtime
shape     runtime types
storage   runtime
memory    runtime storage
array     runtime storage memory types shape
codegen   runtime storage memory types shape array
expr      runtime storage memory types shape array codegen
reduce    runtime storage memory types shape array codegen expr
user      runtime storage memory types shape array codegen expr reduce
host      runtime storage memory types shape array expr
linalg    runtime storage memory types shape array codegen expr reduce
fft       runtime storage memory types shape array expr
interop   runtime storage memory types shape array
sort      runtime storage memory types shape array codegen expr
stats     runtime storage memory types shape array codegen expr reduce sort linalg indexing
indexing  runtime storage memory types shape array codegen expr reduce
random    runtime storage memory types shape array codegen expr reduce sort linalg indexing
multi     runtime storage memory types shape array codegen expr reduce linalg indexing host
signal    runtime storage memory types shape array codegen expr reduce sort fft indexing
umbrella  *
'
# Headers directly in include/clarray/ and their layers.
TOP_LEVEL_HEADERS='
error.hpp    runtime
version.hpp  runtime
clarray.hpp  umbrella
'
# The classes whose members a higher layer may define out of the class, one entry each: the
# class, the layer that defines them, why (indented lines continue it). Every other member
# definition above its class's layer fails, and so does an entry that matches none (when its
# class is in the tree).
ALLOWED_MEMBERS='
cl_array  expr  its expression members (operator=, the expression constructor, astype,
                compound assignment) need the expression templates, as the semantic members
                of xtensor do
cl_array  host  get, set(xexpression) and map make or read xtensor containers and host views
                (xtensor adaptors over mapped memory), which host/ owns
'

check_tree() {
    local root=$1
    cd "$root"
    local dirs=()
    for d in include/clarray src; do [[ -d $d ]] && dirs+=("$d"); done
    ((${#dirs[@]})) || { echo "check-layers: no include/clarray or src under $root" >&2; return 1; }
    local files
    mapfile -t files < <(find "${dirs[@]}" -type f | LC_ALL=C sort)
    awk -v layers="$LAYERS" -v top_level="$TOP_LEVEL_HEADERS" \
        -v allowed_members="$ALLOWED_MEMBERS" '
    function layer_of_path(path,   p, n) {
        n = split(path, p, "/")
        if (p[1] == "include") return n == 3 ? top[p[3]] : p[3]
        return n == 2 ? "" : p[2]
    }
    function layer_of_header(header,   p, n) {
        n = split(header, p, "/")
        return n == 2 ? top[p[2]] : p[2]
    }
    function may_use(from, to) {
        return from == to || uses[from] == "*" || index(" " uses[from] " ", " " to " ") > 0
    }
    function problem(text) { print text; failures++ }
    # The identifier just before the first "(" of s.
    function name_before_paren(s,   head) {
        head = substr(s, 1, index(s, "(") - 1)
        sub(/[ \t]+$/, "", head)
        if (!match(head, /[A-Za-z_][A-Za-z0-9_]*$/)) return ""
        if (substr(head, RSTART - 2, 2) == "::") return ""  # a member or qualified definition
        return substr(head, RSTART)
    }
    # The position just after the ">" that closes the "<" at position `open` of s (0: none).
    function after_angles(s, open,   i, depth, c) {
        depth = 0
        for (i = open; i <= length(s); i++) {
            c = substr(s, i, 1)
            if (c == "<") depth++
            else if (c == ">" && --depth == 0) return i + 1
        }
        return 0
    }
    # The position of the "<" that opens the ">" ending s (0: none).
    function opening_angle(s,   i, depth, c) {
        depth = 0
        for (i = length(s); i >= 1; i--) {
            c = substr(s, i, 1)
            if (c == ">") depth++
            else if (c == "<" && --depth == 0) return i
        }
        return 0
    }
    # When s defines a member out of its class (Class::name(, Class<...>::name(, also ~Class and
    # operators, after template heads and a return type), sets member_name and returns the
    # class; "" otherwise. Definitions sit at column 0 (NamespaceIndentation: None); in a macro
    # body (a line ending in a backslash) an indented one counts when a return type precedes it.
    # Lines ending in ";" are calls, declarations or explicit instantiations (but "= default;").
    function member_class(s,   macro, head, p, cls, prefix) {
        macro = s ~ /\\[ \t]*$/
        if (s ~ /^[ \t]/ && !macro) return ""
        if (s ~ /;[ \t]*(\\[ \t]*)?$/ && s !~ /=[ \t]*default[ \t]*;/) return ""
        # The "(" that opens the parameters: the first one, or the first after "operator()".
        gsub(/operator[ \t]*\([ \t]*\)/, "operator()", s)
        p = index(s, "operator()")
        p = p ? p + 9 : 0
        p += index(substr(s, p + 1), "(")
        if (p == 0 || substr(s, p, 1) != "(") return ""
        head = substr(s, 1, p - 1)
        sub(/^[ \t]+/, "", head)
        sub(/[ \t]+$/, "", head)
        while (head ~ /^template[ \t]*</) {
            p = after_angles(head, index(head, "<"))
            if (p == 0) return ""
            head = substr(head, p)
            sub(/^[ \t]+/, "", head)
        }
        if (!match(head, /::[ \t]*operator([^A-Za-z0-9_].*)?$/) &&
            !match(head, /::[ \t]*~?[ \t]*[A-Za-z_][A-Za-z0-9_]*$/))
            return ""
        member_name = substr(head, RSTART + 2)
        sub(/^[ \t]+/, "", member_name)
        head = substr(head, 1, RSTART - 1)
        sub(/[ \t]+$/, "", head)
        if (head ~ />$/) {
            p = opening_angle(head)
            if (p == 0) return ""
            head = substr(head, 1, p - 1)
        }
        if (!match(head, /[A-Za-z_][A-Za-z0-9_]*$/)) return ""
        cls = substr(head, RSTART)
        prefix = substr(head, 1, RSTART - 1)
        sub(/([A-Za-z_][A-Za-z0-9_]*[ \t]*::[ \t]*)+$/, "", prefix) # namespaces around the class
        # A return type: type words only, ending in a space, "*" or "&"; no statement keyword.
        if (prefix ~ /[^A-Za-z0-9_:<>,*& \t]/ || (prefix != "" && prefix !~ /[ \t*&]$/)) return ""
        if (prefix ~ /^(return|throw|new|delete|else|case|goto|using|typedef|friend)[^A-Za-z0-9_]/)
            return ""
        if (macro && s ~ /^[ \t]/ && prefix == "") return ""
        return cls
    }
    # Records that `name` is defined at `where` in `layer`.
    function add_definition(kind, name, layer, where) {
        defined_in[kind, name, layer] = 1
        if (!((kind, name) in first_definition)) first_definition[kind, name] = where
        definers[kind, name] = definers[kind, name] " " layer
    }
    # A declaration of `name` in layer `from` is fine when a layer it may use defines it, or when
    # clarray defines it nowhere (a standard or third-party name).
    function check_declaration(kind, name, from, where,   i, n, l) {
        n = split(definers[kind, name], l, " ")
        if (n == 0) return
        for (i = 1; i <= n; i++) if (may_use(from, l[i])) return
        problem(where ": " from " may not declare " l[1] "'\''s " name " (" \
                first_definition[kind, name] ")")
    }
    BEGIN {
        n = split(layers, line, "\n")
        for (i = 1; i <= n; i++) {
            if (split(line[i], f, " ") < 2) continue
            uses[f[1]] = line[i]
            sub(/^[ \t]*[^ \t]+[ \t]+/, "", uses[f[1]])
        }
        n = split(top_level, line, "\n")
        for (i = 1; i <= n; i++) if (split(line[i], f, " ") == 2) top[f[1]] = f[2]
        n = split(allowed_members, line, "\n")
        for (i = 1; i <= n; i++)
            if (line[i] !~ /^[ \t]/ && split(line[i], f, " ") >= 2) allowed[f[1], f[2]] = 0
        # Every file, empty ones too, must sit in a layer of the table.
        files = ARGC - 1
        for (i = 1; i < ARGC; i++) {
            layer = layer_of_path(ARGV[i])
            if (layer in uses) continue
            where = ARGV[i]
            if (layer != "") where = (where ~ /^include\// ? "include/clarray/" : "src/") layer
            if (!(where in reported_unknown))
                problem(where ": not in the layer table (LAYERS or TOP_LEVEL_HEADERS of " \
                        "scripts/check-layers.sh)")
            reported_unknown[where] = 1
        }
    }
    FNR == 1 {
        layer = layer_of_path(FILENAME)
        is_header = FILENAME ~ /\.(h|hpp)$/ # include/clarray/ and internal headers of src/
    }
    # #include "clarray/..." and #include <clarray/...>
    /^[ \t]*#[ \t]*include[ \t]*[<"]clarray\// {
        header = $0
        sub(/^[^<"]*[<"]/, "", header)
        sub(/[>"].*$/, "", header)
        includes++
        to = layer_of_header(header)
        if (!(to in uses)) problem(FILENAME ":" FNR ": " header " is in no layer of the table")
        else if ((layer in uses) && !may_use(layer, to))
            problem(FILENAME ":" FNR ": " layer " may not include " to " (" header ")")
        next
    }
    # Classes: definitions anywhere, forward declarations (class x; / template <...> struct x;).
    /^[ \t]*(template[ \t]*<.*>[ \t]*)?(class|struct)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*;/ {
        match($0, /(class|struct)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*;/)
        s = substr($0, RSTART, RLENGTH)
        sub(/^(class|struct)[ \t]+/, "", s)
        sub(/[ \t]*;$/, "", s)
        class_declarations[++ndecl] = "class" SUBSEP s SUBSEP layer SUBSEP FILENAME ":" FNR
        next
    }
    /^[ \t]*(template[ \t]*<.*>[ \t]*)?(class|struct)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*(final[ \t]*)?(:[^:]|\{|$)/ {
        match($0, /(class|struct)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*(final[ \t]*)?(:[^:]|\{|$)/)
        s = substr($0, RSTART, RLENGTH)
        sub(/^(class|struct)[ \t]+/, "", s)
        sub(/[^A-Za-z0-9_].*$/, "", s)
        add_definition("class", s, layer, FILENAME ":" FNR)
        next
    }
    # Members defined out of their class; checked at the end, when every class is known.
    /::/ {
        cls = member_class($0)
        if (cls != "")
            member_definitions[++nmdef] = cls SUBSEP member_name SUBSEP layer SUBSEP \
                                          FILENAME ":" FNR
    }
    # Free functions at namespace scope (column 0 under NamespaceIndentation: None): a
    # declaration in a header ends with ";"; a definition is one in a source file or a header
    # line that opens a body.
    /^[A-Za-z_][A-Za-z0-9_:<>,*& \t]*[ \t*&][A-Za-z_][A-Za-z0-9_]*\(/ {
        fn = name_before_paren($0)
        if (fn == "" || fn ~ /^(return|if|while|for|switch|sizeof|decltype|static_assert)$/) next
        if (!is_header || index($0, "{") > 0) add_definition("function", fn, layer, FILENAME ":" FNR)
        else if ($0 ~ /\)[^;]*;[ \t]*$/)
            function_declarations[++nfdecl] = "function" SUBSEP fn SUBSEP layer SUBSEP \
                                               FILENAME ":" FNR
    }
    END {
        for (i = 1; i <= ndecl; i++) {
            split(class_declarations[i], d, SUBSEP)
            if (d[3] in uses) check_declaration(d[1], d[2], d[3], d[4])
        }
        for (i = 1; i <= nfdecl; i++) {
            split(function_declarations[i], d, SUBSEP)
            if (d[3] in uses) check_declaration(d[1], d[2], d[3], d[4])
        }
        # A member of a class of layer Y defined in layer X: fine when a layer defining the class
        # is X or may use X (the include check sees the rest), or when ALLOWED_MEMBERS lists it.
        for (i = 1; i <= nmdef; i++) {
            split(member_definitions[i], d, SUBSEP)
            if (!(d[3] in uses)) continue
            n = split(definers["class", d[1]], l, " ")
            if (n == 0) continue # not a clarray class
            for (j = 1; j <= n; j++) if (l[j] == d[3] || may_use(l[j], d[3])) break
            if (j <= n) continue
            if ((d[1], d[3]) in allowed) {
                allowed[d[1], d[3]]++
                allowed_definitions++
                continue
            }
            problem(d[4] ": " d[3] " may not define " l[1] "'\''s " d[1] "::" d[2] " (" \
                    first_definition["class", d[1]] "; not in ALLOWED_MEMBERS)")
        }
        for (k in allowed) {
            split(k, d, SUBSEP)
            if (allowed[k] == 0 && definers["class", d[1]] != "")
                problem("scripts/check-layers.sh: ALLOWED_MEMBERS lists " d[1] " in " d[2] \
                        ", which defines none of its members")
        }
        if (failures) {
            printf "layer check: %d problem(s) in %d files (%d clarray includes)\n", failures,
                   files, includes
            exit 1
        }
        printf "layer check: %d files, %d clarray includes, every edge goes downwards (%d " \
               "member definitions above their class'\''s layer, all in ALLOWED_MEMBERS)\n",
               files, includes, allowed_definitions
    }' "${files[@]}"
}

# Runs the checker on a tree made by `make_tree`; passes when its exit status is `want_rc` and
# its output has the line `want_line` (when given) and no line about `clean_file` (when given).
self_test_case() {
    local description=$1 want_rc=$2 want_line=$3 clean_file=$4 make_tree=$5
    local tree out rc=0
    tree=$(mktemp -d)
    (cd "$tree" && eval "$make_tree")
    out=$("$0" "$tree" 2>&1) || rc=$?
    rm -rf "$tree"
    local ok=1
    ((rc == want_rc)) || ok=0
    [[ -z $want_line ]] || grep -qxF -- "$want_line" <<<"$out" || ok=0
    [[ -z $clean_file ]] || ! grep -q "^$clean_file:" <<<"$out" || ok=0
    if ((ok)); then
        echo "self-test ok: $description"
    else
        echo "self-test FAILED: $description (exit $rc, want $want_rc; expected line: $want_line)"
        while IFS= read -r line; do echo "    $line"; done <<<"$out"
        return 1
    fi
}

self_test() {
    local base='mkdir -p include/clarray/runtime include/clarray/storage include/clarray/array src/array
        echo "class queue {};" >include/clarray/runtime/queue.hpp
        echo "struct block {};" >include/clarray/storage/block.hpp
        printf "#pragma once\n#include \"clarray/runtime/queue.hpp\"\nstruct shape {};\n" \
            >include/clarray/array/shape.hpp
        printf "#include <clarray/runtime/queue.hpp>\n#include \"clarray/storage/block.hpp\"\n%s\n" \
            "int rank(const shape& s) {" >src/array/shape.cpp'
    local status=0
    self_test_case "allowed includes (array -> runtime, storage) pass" 0 "" "" "$base" || status=1
    self_test_case "an upward include (runtime -> array) fails" 1 \
        "include/clarray/runtime/bad.hpp:2: runtime may not include array (clarray/array/shape.hpp)" \
        include/clarray/array/shape.hpp \
        "$base"'; printf "#pragma once\n#include <clarray/array/shape.hpp>\n" \
            >include/clarray/runtime/bad.hpp' || status=1
    self_test_case "a folder missing from the table fails" 1 \
        "include/clarray/newfolder: not in the layer table (LAYERS or TOP_LEVEL_HEADERS of scripts/check-layers.sh)" \
        "" "$base"'; mkdir include/clarray/newfolder; touch include/clarray/newfolder/a.hpp' ||
        status=1
    self_test_case "a forward declaration of an upper layer's class fails" 1 \
        "include/clarray/runtime/fwd.hpp:1: runtime may not declare array's shape (include/clarray/array/shape.hpp:3)" \
        "" "$base"'; echo "struct shape;" >include/clarray/runtime/fwd.hpp' || status=1
    self_test_case "a lower-layer declaration of a function defined above fails" 1 \
        "include/clarray/runtime/call.hpp:1: runtime may not declare array's rank (src/array/shape.cpp:3)" \
        "" "$base"'; echo "int rank(const shape& s);" >include/clarray/runtime/call.hpp' ||
        status=1
    # cl_array (array) with members defined in its own layer and, as ALLOWED_MEMBERS lists, in
    # expr (in a macro body) and host.
    local members='mkdir -p include/clarray/expr include/clarray/host
        printf "%s\n" "#pragma once" "template <class T, class S> class cl_array {};" \
            >include/clarray/array/cl_array.hpp
        printf "%s\n" "#include \"clarray/array/cl_array.hpp\"" "template <class T, class S>" \
            "void cl_array<T, S>::fill(const T& v) {" "}" >include/clarray/array/cl_array_impl.hpp
        printf "%s\n" "#include \"clarray/array/cl_array.hpp\"" "#define COMPOUND(SYMBOL) \\" \
            "    template <class T, class S> \\" "    template <class X> \\" \
            "    cl_array<T, S>& cl_array<T, S>::operator SYMBOL(const X& x) { \\" \
            "        return *this; \\" "    }" >include/clarray/expr/assign.hpp
        printf "%s\n" "#include <clarray/array/cl_array.hpp>" \
            "template <class T, class S> auto cl_array<T, S>::get() const {" "}" \
            >include/clarray/host/conversions.hpp'
    self_test_case "member definitions above their class that ALLOWED_MEMBERS lists pass" 0 \
        "layer check: 8 files, 6 clarray includes, every edge goes downwards (2 member definitions above their class's layer, all in ALLOWED_MEMBERS)" \
        "" "$base; $members" || status=1
    self_test_case "a member of a lower layer's class defined above it fails, a listed one passes" 1 \
        "src/host/shape.cpp:2: host may not define array's shape::rank (include/clarray/array/shape.hpp:3; not in ALLOWED_MEMBERS)" \
        include/clarray/expr/assign.hpp "$base; $members"'; mkdir -p src/host
        printf "%s\n" "#include \"clarray/array/shape.hpp\"" "int shape::rank() const {" "}" \
            >src/host/shape.cpp' || status=1
    self_test_case "an ALLOWED_MEMBERS line that matches no definition fails" 1 \
        "scripts/check-layers.sh: ALLOWED_MEMBERS lists cl_array in host, which defines none of its members" \
        include/clarray/expr/assign.hpp "$base; $members"'; rm include/clarray/host/conversions.hpp' ||
        status=1
    return $status
}

case ${1:-} in
--self-test) self_test ;;
-h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" ;;
*) check_tree "${1:-$(dirname "$0")/..}" ;;
esac
