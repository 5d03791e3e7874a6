# SPDX-License-Identifier: Apache-2.0
"""A case's identity in a kwb results document, for the scripts that read several documents.

Schema 6 cases carry a self-describing `size` (family and named axes); schemas 1-5 carry
`shape` (GEMM) or `problem` + `count` + `elementType` (the 1-D families). Both give the same
key and label, so documents of any schema line up.
"""


def size_label(c):
    """'512x512x512' for GEMM, '2^20 f32' style for the other families ('1048576 f32')."""
    size = c.get("size")
    if size:
        numbers = [str(a["value"]) for a in size["axes"] if a.get("kind") != "word" and not a.get("unit")]
        extras = [f'{a["value"]} {a["unit"]}' for a in size["axes"] if a.get("kind") != "word" and a.get("unit")]
        words = [str(a["value"]) for a in size["axes"] if a.get("kind") == "word"]
        return " ".join(["x".join(numbers)] + extras + words)
    if c.get("problem", "gemm") == "gemm":
        s = c.get("shape") or {}
        return f'{s.get("m")}x{s.get("n")}x{s.get("k")}'
    return f'{c.get("count")} {c.get("elementType")}'


def family(c):
    size = c.get("size")
    return size["family"] if size else c.get("problem", "gemm")


def case_key(c):
    """(kernel, family, size label): the same case in any two documents."""
    return (c["kernel"], family(c), size_label(c))


def label(key):
    kernel, fam, size = key
    return f"{kernel} {size}" if fam == "gemm" else f"{kernel} {fam} {size}"
