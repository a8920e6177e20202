#!/usr/bin/env python3
"""Doxygen INPUT_FILTER for clarray's headers: their comments are plain `//` lines directly above
the declaration they explain (the project's style), which Doxygen does not read. A run of `//`
lines that ends right above a declaration becomes `///`; comments inside function bodies (which
Doxygen would append to the function's documentation), inside string literals, file headers
followed by a blank line or an #include, section markers (`// ---- views ----`) and trailing
comments stay as they are. `//@{` and `//@}` (alone on a line) open and close a Doxygen member
group: one comment directly above the `//@{` documents every declaration up to the `//@}`
(DISTRIBUTE_GROUP_DOC).

Usage: doxygen-filter.py FILE (the filtered text on stdout);
       doxygen-filter.py --tree SRC DEST (every .hpp below SRC, filtered, to the same path below
       DEST: one process for all headers, where Doxygen would start one per header and pass);
       doxygen-filter.py --self-test (checks the filter on examples; exit status 1 on a failure)."""
import re
import sys

# A run of these becomes documentation; section markers head a part of a file instead.
COMMENT = re.compile(r"^(\s*)//(?!/)(?!\s*-{3,}.*-{3,}\s*$)(.*)$")
GROUP = re.compile(r"^(\s*)//(@[{}])\s*$")
# Lines a comment above which explains something other than a declaration Doxygen documents
# (which would otherwise take the comment as its own).
NOT_DECLARATION = re.compile(r"^(?:#|}|//|static_assert\b|(?:public|private|protected)\s*:)")
# What a brace that opens a scope of declarations (not a function body or an initializer)
# follows, once template parameter lists, attributes and access labels are removed.
SCOPE_HEAD = re.compile(r"^(?:(?:inline|typedef|extern\s*\"\")\s*)*(?:namespace|class|struct|union|enum)\b"
                        r"|^extern\s*\"\"\s*$")


def strip_head(prefix):
    """The declaration head before a `{`, without template parameter lists, attributes and
    access labels."""
    text = " ".join(prefix.split())
    text = re.sub(r"^(?:(?:public|private|protected)\s*:\s*)+", "", text)
    out, i = [], 0
    while i < len(text):
        m = re.match(r"template\s*<", text[i:])
        if m:
            depth, j = 1, i + m.end()
            while j < len(text) and depth:
                depth += {"<": 1, ">": -1}.get(text[j], 0)
                j += 1
            i = j
            continue
        out.append(text[i])
        i += 1
    text = re.sub(r"\[\[[^\]]*\]\]", "", "".join(out))
    return text.strip()


TOKEN = re.compile(r'//|/\*|(?<![\w])(?:u8|[uUL])?R"([^(\s]*)\(|"|(?<![\w])\'|[{};\n]')


def line_states(text):
    """For each line: (inside a function body or initializer, inside a string or block comment,
    a preprocessor line), each at the line's start."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    stack = []  # True: a brace that opens a body/initializer, False: a scope of declarations
    prefix = []
    # (position, in a body, in a string or block comment) where that changes; lines take the
    # state at their start from it.
    marks = []
    i, n = 0, len(text)

    def mark(pos, in_string):
        marks.append((pos, any(stack), in_string))

    mark(0, False)
    while i < n:
        m = TOKEN.search(text, i)
        if not m:
            prefix.append(text[i:])
            break
        prefix.append(text[i : m.start()])
        tok, i = m.group(0), m.end()
        if tok == "//":
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
        elif tok == "/*":
            mark(m.start() + 1, True)
            end = text.find("*/", i)
            i = n if end < 0 else end + 2
            mark(i, False)
        elif tok == '"' or tok.endswith("("):
            mark(m.start() + 1, True)
            if tok == '"':
                j = i
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                i = min(j + 1, n)
            else:
                end = text.find(")" + m.group(1) + '"', i)
                i = n if end < 0 else end + len(m.group(1)) + 2
            mark(i, False)
            prefix.append('""')
        elif tok == "'":
            j = i
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            i = min(j + 1, n)
        elif tok == "\n":
            prefix.append("\n")
        elif tok == "{":
            stack.append(not SCOPE_HEAD.match(strip_head(preprocessor_free("".join(prefix)))))
            prefix = []
            mark(i, False)
        elif tok == "}":
            if stack:
                stack.pop()
            prefix = []
            mark(i, False)
        else:  # ;
            prefix = []
    states, k = [], 0
    in_body = in_string = False
    directive = False
    lines = text.split("\n")
    for line_no, start in enumerate(starts):
        while k < len(marks) and marks[k][0] <= start:
            _, in_body, in_string = marks[k]
            k += 1
        continued = directive and line_no > 0 and lines[line_no - 1].endswith("\\")
        directive = continued or (not in_string and lines[line_no].lstrip().startswith("#"))
        states.append((in_body, in_string, directive))
    return states


def preprocessor_free(prefix):
    """The prefix without the preprocessor directives in it (#include lines between a comment
    and a namespace)."""
    out, skipping = [], False
    for part in prefix.split("\n"):
        stripped = part.strip()
        if skipping or stripped.startswith("#"):
            skipping = stripped.endswith("\\")
            continue
        out.append(part)
    return " ".join(out)


def filter_header(text):
    lines = text.split("\n")
    states = line_states(text)

    def plain(k):  # a line of code, outside bodies, strings and preprocessor directives
        in_body, in_string, preprocessor = states[k]
        return not (in_body or in_string or preprocessor)

    for k, line in enumerate(lines):
        m = GROUP.match(line)
        if m and plain(k):
            lines[k] = m.group(1) + "///" + m.group(2)
    i = 0
    while i < len(lines):
        if not (COMMENT.match(lines[i]) and plain(i)):
            i += 1
            continue
        j = i
        while j < len(lines) and COMMENT.match(lines[j]) and plain(j):
            j += 1
        following = lines[j].strip() if j < len(lines) else ""
        opens_group = following == "///@{"
        declaration = following and not NOT_DECLARATION.match(following)
        if opens_group or declaration:
            for k in range(i, j):
                m = COMMENT.match(lines[k])
                lines[k] = m.group(1) + "///" + m.group(2)
        i = j
    return "\n".join(lines)


def self_test():
    source = "\n".join([
        "// File header.",
        "#include <x>",
        "namespace n {",
        "// Documents f.",
        "template <class T> int f(T x) {",
        "    // Inside a body.",
        "    return 1;",
        "}",
        "// Documents s.",
        "struct s : b<(1 > 0)> {",
        "    // Explains the assertion.",
        "    static_assert(true);",
        "    // Documents g.",
        "    int g() const { return 0; } // trailing",
        "    // Documents the group.",
        "    //@{",
        "    int a, b;",
        "    //@}",
        "    // ---- a section ----",
        "    // Documents h.",
        '    const char* h() { return R"(',
        "// inside a raw string",
        '    x)"; }',
        "};",
        "} // namespace n",
    ])
    expected = {0: "// File header.", 3: "/// Documents f.", 5: "    // Inside a body.",
                8: "/// Documents s.", 10: "    // Explains the assertion.",
                12: "    /// Documents g.", 13: "    int g() const { return 0; } // trailing",
                14: "    /// Documents the group.", 15: "    ///@{", 17: "    ///@}",
                18: "    // ---- a section ----", 19: "    /// Documents h.",
                21: "// inside a raw string"}
    got = filter_header(source).split("\n")
    failures = [(k, got[k], v) for k, v in expected.items() if got[k] != v]
    for k, g, v in failures:
        print(f"doxygen-filter self-test: line {k + 1}: got {g!r}, expected {v!r}")
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1] == "--self-test":
        sys.exit(self_test())
    if sys.argv[1] == "--tree":
        import os

        src, dest = sys.argv[2], sys.argv[3]
        for root, _, files in os.walk(src):
            for name in files:
                if not name.endswith(".hpp"):
                    continue
                out_dir = os.path.join(dest, os.path.relpath(root, src))
                os.makedirs(out_dir, exist_ok=True)
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    text = f.read()
                with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
                    f.write(filter_header(text))
        sys.exit(0)
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    sys.stdout.write(filter_header(text) if path.endswith(".hpp") else text)
