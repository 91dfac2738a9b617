"""Parse untrusted SVG text into an element tree, safely and within caps.

defusedxml's expat parser with entity declarations and external references
forbidden; a DOCTYPE is allowed only without an internal subset (the SVG 1.1
public doctype is common and harmless; one that declares entities is how a
billion-laughs or ``file:///etc/passwd`` attack starts). Byte, element and depth
caps are enforced while parsing, so a hostile document is refused after the
first element over the cap, not after building it.

Failures raise ``SvgError`` with a short code (``svg_too_large``,
``dtd_forbidden``, ``entities_forbidden``, ``external_reference_forbidden``,
``too_many_elements``, ``too_deep``, ``xml_syntax``, ``not_svg``) and a message.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

from defusedxml import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.ElementTree import DefusedXMLParser

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"


@dataclass(frozen=True)
class SvgLimits:
    """Caps on untrusted input; anything over one is a scored failure, never a hang."""

    max_completion_chars: int = 2_000_000
    max_svg_bytes: int = 1_000_000
    max_elements: int = 10_000
    max_depth: int = 64
    max_shapes: int = 20_000
    """Drawn shapes after ``<use>`` expansion (a chain of ``<use>`` multiplies)."""
    max_path_points: int = 100_000
    """Points in all flattened outlines together."""


DEFAULT_LIMITS = SvgLimits()


class SvgError(ValueError):
    """Why an SVG cannot be scored; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class _CappedBuilder(TreeBuilder):
    def __init__(self, limits: SvgLimits) -> None:
        super().__init__()
        self.limits = limits
        self.count = 0
        self.depth = 0

    def start(self, tag, attrs):  # noqa: ANN001 - TreeBuilder's signature
        self.count += 1
        self.depth += 1
        if self.count > self.limits.max_elements:
            raise SvgError("too_many_elements",
                           f"more than {self.limits.max_elements} elements")
        if self.depth > self.limits.max_depth:
            raise SvgError("too_deep", f"elements nested deeper than {self.limits.max_depth}")
        return super().start(tag, attrs)

    def end(self, tag):  # noqa: ANN001
        self.depth -= 1
        return super().end(tag)


class _SafeParser(DefusedXMLParser):
    """Entities and external references forbidden; DOCTYPE only without an internal subset."""

    def __init__(self, target: TreeBuilder) -> None:
        super().__init__(target=target, forbid_dtd=False, forbid_entities=True,
                         forbid_external=True)
        self.parser.StartDoctypeDeclHandler = self._check_doctype

    def _check_doctype(self, name, sysid, pubid, has_internal_subset):  # noqa: ANN001
        if has_internal_subset:
            raise DTDForbidden(name, sysid, pubid)


def parse_svg(text: str, limits: SvgLimits = DEFAULT_LIMITS) -> Element:
    """The root ``<svg>`` element of ``text``; raises ``SvgError``."""
    size = len(text.encode("utf-8", errors="replace"))
    if size > limits.max_svg_bytes:
        raise SvgError("svg_too_large", f"{size} bytes, over the {limits.max_svg_bytes} cap")
    builder = _CappedBuilder(limits)
    parser = _SafeParser(builder)
    try:
        parser.feed(text)
        root = parser.close()
    except SvgError:
        raise
    except DTDForbidden:
        raise SvgError("dtd_forbidden", "a DOCTYPE with an internal subset "
                       "(entity declarations) is not allowed") from None
    except EntitiesForbidden as exc:
        raise SvgError("entities_forbidden", f"entity declaration {exc.name!r}") from None
    except ExternalReferenceForbidden as exc:
        raise SvgError("external_reference_forbidden",
                       f"external reference {exc.sysid!r}") from None
    except ParseError as exc:
        raise SvgError("xml_syntax", str(exc)) from None
    except RecursionError:  # defensive: caps should prevent it
        raise SvgError("too_deep", "nesting too deep to parse") from None
    if local_name(root.tag) != "svg":
        raise SvgError("not_svg", f"the root element is <{local_name(root.tag)}>, not <svg>")
    if namespace(root.tag) not in ("", SVG_NS):
        raise SvgError("not_svg", f"the root <svg> is in namespace {namespace(root.tag)!r}")
    return root


def local_name(tag: object) -> str:
    """``{ns}circle`` -> ``circle``; comments and processing instructions give ``""``."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def namespace(tag: str) -> str:
    return tag[1:].split("}", 1)[0] if tag.startswith("{") else ""


def is_svg_element(element: Element) -> bool:
    """In the SVG namespace, or in none (models often leave out ``xmlns``)."""
    return isinstance(element.tag, str) and namespace(element.tag) in ("", SVG_NS)
