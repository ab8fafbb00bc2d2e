"""The semantic model's matrix products in integer arithmetic (:func:`integer_products`): an
experiment of issue 35, evaluated by ``bench/int8_variant.py`` and NOT shipped (skillc runs
the pinned file as it is: bench/RESULTS.md, "The int8-arithmetic model, evaluated", says
why).

The pinned model file (``skillc_gateway.catalog.embedding.FILES``) stores each weight matrix
as int8 values and one float scale per output column, used as ``MatMul(x, Mul(Cast(w),
scale))``. onnxruntime folds every ``Mul(Cast(w), scale)`` into a float32 matrix when it
loads the file, so each embedding is float32 arithmetic (4x the bytes of weights read).
:func:`integer_products` rewrites such a product as ``DynamicQuantizeLinear(x)`` (the
activations to uint8, one scale a call), ``MatMulInteger`` over the file's own weights (as
they are, or shifted to uint8: below), then the int32 sums back to float times both
scales; onnxruntime fuses them into ``DynamicQuantizeMatMul`` (or ``MatMulIntegerToFloat``).
The sums are those of the file's weights, bit for bit; only the activations are rounded.

Exact on every CPU: onnxruntime's quantization docs warn that on x86-64 CPUs with AVX2 or
AVX-512 but no VNNI, products of uint8 activations and int8 weights (U8S8) are summed with
``VPMADDUBSW``, whose int16 sums of two products saturate (255 x 127 x 2 > 32767), and the
file's weights use the whole int8 range. U8U8 products (the weights shifted to uint8, ``w +
128``, exact, with a zero point of 128) are exact on every CPU, but onnxruntime has no VNNI
kernel for them (about 1.5x U8S8's CPU where VNNI exists). :func:`signed_exact` tells the
two cases apart from Linux's CPU flags; the vectors are the same either way.

The products of the feed-forward output (weights of shape :data:`FLOAT_SHAPES`) stay float:
with them in int8 too the vectors stray further from the float model's and the ranking lost
two requests of R@1 on the held-out set's half A.

The rewrite reads and writes the file's protobuf with the ``protobuf`` runtime that
onnxruntime depends on, through the few fields of ONNX's schema it needs (:func:`_classes`;
every other field is carried through unread, as protobuf keeps unknown fields), in memory
(about 0.05 s): no ``onnx`` package, no file written.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

__all__ = ["FLOAT_SHAPES", "VNNI_FLAGS", "integer_products", "signed_exact"]

#: Weight shapes whose products stay float (the feed-forward output, 1536 -> 384).
FLOAT_SHAPES = frozenset({(1536, 384)})
_INT8 = 3  # ONNX TensorProto.DataType
_UINT8 = 2
_FLOAT = 1
_INT = 2  # ONNX AttributeProto.AttributeType


@lru_cache(maxsize=1)
def _classes() -> dict[str, Any]:
    """Message classes for the part of ONNX's ``onnx.proto`` (proto2) that the rewrite
    reads or writes, with ONNX's field numbers."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    proto = descriptor_pb2.FieldDescriptorProto
    fields = {
        "Model": [("graph", 7, proto.TYPE_MESSAGE, "Graph", False)],
        "Graph": [
            ("node", 1, proto.TYPE_MESSAGE, "Node", True),
            ("initializer", 5, proto.TYPE_MESSAGE, "Tensor", True),
        ],
        "Node": [
            ("input", 1, proto.TYPE_STRING, "", True),
            ("output", 2, proto.TYPE_STRING, "", True),
            ("name", 3, proto.TYPE_STRING, "", False),
            ("op_type", 4, proto.TYPE_STRING, "", False),
            ("attribute", 5, proto.TYPE_MESSAGE, "Attribute", True),
        ],
        "Attribute": [
            ("name", 1, proto.TYPE_STRING, "", False),
            ("i", 3, proto.TYPE_INT64, "", False),
            ("type", 20, proto.TYPE_INT32, "", False),
        ],
        "Tensor": [
            ("dims", 1, proto.TYPE_INT64, "", True),
            ("data_type", 2, proto.TYPE_INT32, "", False),
            ("name", 8, proto.TYPE_STRING, "", False),
            ("raw_data", 9, proto.TYPE_BYTES, "", False),
        ],
    }
    package = "skillc_onnx_subset"
    file = descriptor_pb2.FileDescriptorProto(
        name=f"{package}.proto", package=package, syntax="proto2"
    )
    for message, members in fields.items():
        made = file.message_type.add(name=message)
        for name, number, kind, type_name, repeated in members:
            made.field.add(
                name=name,
                number=number,
                type=kind,
                type_name=f".{package}.{type_name}" if type_name else None,
                label=proto.LABEL_REPEATED if repeated else proto.LABEL_OPTIONAL,
            )
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return {
        name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{package}.{name}"))
        for name in fields
    }


def integer_products(
    data: bytes,
    keep: frozenset[tuple[int, ...]] = FLOAT_SHAPES,
    *,
    unsigned: bool | None = None,
) -> bytes:
    """``data`` (an ONNX model) with each ``MatMul`` over int8 weights scaled per column
    (``MatMul(x, Mul(Cast(w_int8), scale))``) made an integer product, except those whose
    weight's shape is in ``keep`` (or whose weights are not stored as ``raw_data``); the
    ``Cast``, ``Mul`` and int8 weights left unread are dropped. ``unsigned``: U8U8 products,
    the weights shifted to uint8 (``w + 128``, a new initializer) with a zero point of 128;
    else U8S8 over the file's int8 weights; None (the default): U8S8 where that is exact
    and faster (:func:`signed_exact`), else U8U8. ``data`` unchanged when it holds no such
    product."""
    if unsigned is None:
        unsigned = not signed_exact()
    classes = _classes()
    model = classes["Model"].FromString(data)
    graph = model.graph
    int8 = {t.name: t for t in graph.initializer if t.data_type == _INT8 and t.raw_data}
    producer = {output: node for node in graph.node for output in node.output}
    nodes: list[Any] = []
    made: list[Any] = []  # the Mul and Cast that made the float weights of a rewritten product
    shifted: dict[str, str] = {}  # an int8 weight's name -> its uint8 copy's
    for node in graph.node:
        scaled = producer.get(node.input[1]) if node.op_type == "MatMul" else None
        cast = producer.get(scaled.input[0]) if scaled and scaled.op_type == "Mul" else None
        weights = cast.input[0] if cast is not None and cast.op_type == "Cast" else None
        if (
            scaled is None
            or weights is None
            or weights not in int8
            or tuple(int8[weights].dims) in keep
        ):
            nodes.append(node)
            continue
        zero = None
        if unsigned:
            if weights not in shifted:
                shifted[weights] = _shifted(graph, int8[weights])
            zero = _zero_point(graph)
        product = _integer_product(
            classes, node, shifted.get(weights, weights), scaled.input[1], zero
        )
        nodes.extend(product)
        made += [scaled, cast]
    if not made:
        return data
    for old in made:  # dropped once nothing reads them (a weight may serve two products)
        if not any(set(old.output) & set(node.input) for node in nodes):
            nodes = [node for node in nodes if node is not old]
    del graph.node[:]
    graph.node.extend(nodes)
    read = {name for node in nodes for name in node.input}
    unread = [t for t in graph.initializer if t.name in shifted and t.name not in read]
    for tensor in unread:  # the int8 weights that only the shifted copies now stand for
        graph.initializer.remove(tensor)
    return bytes(model.SerializeToString())


#: The CPU flags (Linux's ``/proc/cpuinfo``) of the x86 instructions with which onnxruntime
#: sums U8S8 products exactly (``VPDPBUSD``: AVX-512 VNNI, AVX-VNNI).
VNNI_FLAGS = frozenset({"avx512_vnni", "avx_vnni"})


def signed_exact(cpuinfo: str | None = None) -> bool:
    """Whether this CPU (``cpuinfo``: the text of Linux's ``/proc/cpuinfo``, read when None)
    is an x86 one with VNNI, where onnxruntime's U8S8 products are exact and its U8U8 ones
    have no VNNI kernel (about 1.5x the CPU). False wherever that is not known (another
    system, another architecture, the file unreadable): U8U8, exact on every CPU."""
    if cpuinfo is None:
        from pathlib import Path

        try:
            with Path("/proc/cpuinfo").open(encoding="utf-8", errors="replace") as file:
                cpuinfo = file.read(1 << 20)  # the first CPU's lines come first
        except OSError:
            return False
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":  # the first CPU's (x86 only: ARM's line is "Features")
            return not VNNI_FLAGS.isdisjoint(value.split())
    return False


#: A byte of an int8 value (two's complement) to the byte of that value plus 128 as uint8.
_PLUS_128 = bytes(byte ^ 0x80 for byte in range(256))


def _shifted(graph: Any, weights: Any) -> str:
    """Add ``weights`` (int8) plus 128 as a uint8 initializer (exact: -128..127 to 0..255);
    its name."""
    name = f"{weights.name}/u8"
    graph.initializer.add(
        name=name,
        data_type=_UINT8,
        dims=weights.dims,
        raw_data=weights.raw_data.translate(_PLUS_128),
    )
    return name


def _zero_point(graph: Any) -> str:
    """The name of the scalar uint8 128 that the shifted weights' products subtract (added
    once)."""
    name = "int8_products/weight_zero_point"
    if not any(t.name == name for t in graph.initializer):
        graph.initializer.add(name=name, data_type=_UINT8, raw_data=bytes([128]))
    return name


def _integer_product(
    classes: dict[str, Any], node: Any, weights: str, scale: str, zero: str | None
) -> list[Any]:
    """The nodes of ``node``'s product ``x @ (w * scale)`` in integers: ``(q(x) - zx) @ (w -
    zero)`` in int32 (``zero`` None: ``w`` signed, no zero point), to float, times ``sx *
    scale``."""
    make = classes["Node"]
    name = f"{node.name or node.output[0]}/int8"
    x, sx, zx = f"{name}/x", f"{name}/x_scale", f"{name}/x_zero"
    cast = make(input=[f"{name}/sum"], output=[f"{name}/float"], name=f"{name}/cast")
    cast.op_type = "Cast"
    cast.attribute.add(name="to", i=_FLOAT, type=_INT)
    operands = [x, weights, zx] if zero is None else [x, weights, zx, zero]
    return [
        make(op_type="DynamicQuantizeLinear", input=[node.input[0]], output=[x, sx, zx], name=x),
        make(op_type="MatMulInteger", input=operands, output=[f"{name}/sum"], name=name),
        cast,
        make(op_type="Mul", input=[sx, scale], output=[f"{name}/scale"], name=f"{name}/scale"),
        make(
            op_type="Mul",
            input=[f"{name}/float", f"{name}/scale"],
            output=list(node.output),
            name=f"{name}/out",
        ),
    ]
