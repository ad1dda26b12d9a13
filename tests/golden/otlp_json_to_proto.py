#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes OTLP/JSON lines (the Collector's file exporter) as the same exporter's `format: proto` file.

Each input line is one TracesData; each output message is its protobuf, preceded by its length as a 4-byte
big-endian integer (docs/OTLP.md). Only the fields the importer reads are written, numbered as in the OTLP
specification, so the two files hold the same spans. The standard library only: the golden case
otlp_protobuf is made with it from otlp_json/spans.otlp.jsonl, and it can be rerun to check.

Usage: otlp_json_to_proto.py IN.jsonl OUT.pb
"""

import json
import struct
import sys


def varint(value):
    out = bytearray()
    value &= (1 << 64) - 1  # negative int64 values take ten bytes, as protobuf writes them
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def tag(field, wire_type):
    return varint(field << 3 | wire_type)


def length_delimited(field, payload):
    return tag(field, 2) + varint(len(payload)) + payload


def text(field, value):
    return length_delimited(field, value.encode("utf-8"))


def fixed64(field, value):
    return tag(field, 1) + struct.pack("<Q", value)


def any_value(value):
    if "stringValue" in value:
        return text(1, value["stringValue"])
    if "boolValue" in value:
        return tag(2, 0) + varint(1 if value["boolValue"] else 0)
    if "intValue" in value:
        return tag(3, 0) + varint(int(value["intValue"]))
    if "doubleValue" in value:
        return tag(4, 1) + struct.pack("<d", float(value["doubleValue"]))
    raise ValueError(f"unsupported attribute value {value!r}")


def key_values(field, attributes):
    return b"".join(length_delimited(field, text(1, a["key"]) + length_delimited(2, any_value(a["value"])))
                    for a in attributes)


def span(s):
    out = length_delimited(1, bytes.fromhex(s["traceId"])) + length_delimited(2, bytes.fromhex(s["spanId"]))
    if s.get("parentSpanId"):
        out += length_delimited(4, bytes.fromhex(s["parentSpanId"]))
    out += text(5, s.get("name", ""))
    if "kind" in s:
        out += tag(6, 0) + varint(int(s["kind"]))
    out += fixed64(7, int(s["startTimeUnixNano"])) + fixed64(8, int(s["endTimeUnixNano"]))
    out += key_values(9, s.get("attributes", []))
    code = s.get("status", {}).get("code")
    if code is not None:
        out += length_delimited(15, tag(3, 0) + varint(int(code)))
    return out


def scope_spans(ss):
    out = b""
    if "scope" in ss:
        out += length_delimited(1, text(1, ss["scope"].get("name", "")))
    return out + b"".join(length_delimited(2, span(s)) for s in ss.get("spans", []))


def resource_spans(rs):
    out = length_delimited(1, key_values(1, rs.get("resource", {}).get("attributes", [])))
    return out + b"".join(length_delimited(2, scope_spans(ss)) for ss in rs.get("scopeSpans", []))


def traces_data(document):
    return b"".join(length_delimited(1, resource_spans(rs)) for rs in document.get("resourceSpans", []))


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    with open(argv[1], encoding="utf-8") as source, open(argv[2], "wb") as target:
        for line in source:
            if line.strip():
                message = traces_data(json.loads(line))
                target.write(struct.pack(">I", len(message)) + message)


if __name__ == "__main__":
    main(sys.argv)
