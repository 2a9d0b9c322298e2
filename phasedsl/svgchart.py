"""Small SVG charts written by hand (no plotting library): a line chart and a bar chart
as text to put inline in an HTML page.  Pure: values in, markup out."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 34, 44
TICKS = 5
COLORS = ("#1f6fb4", "#d9641e", "#2e8b3d", "#8e44ad", "#7f7f7f")


def _nice_top(value: float) -> float:
    """A round axis maximum at or above ``value``."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * power:
            return step * power
    return 10 * power


def _fmt(value: float, percent: bool) -> str:
    if percent:
        return f"{value:g}%"
    return f"{value:g}"


def _axes(labels: Sequence[str], values: Sequence[float]):
    """The value axis's top, each label's x and the width of one label's slot."""
    slot = (WIDTH - LEFT - RIGHT) / max(1, len(labels))

    def x_of(i: int) -> float:
        return LEFT + slot * (i + 0.5)

    return _nice_top(max(values, default=1.0)), x_of, slot


def _frame(title: str, y_label: str, x_label: str, labels: Sequence[str], top: float,
           percent: bool, x_of) -> list[str]:
    plot_h = HEIGHT - TOP - BOTTOM
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
           f'role="img" aria-label="{escape(title)}" class="chart">',
           f'<title>{escape(title)}</title>',
           f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
           f'<text x="{WIDTH / 2}" y="20" text-anchor="middle" font-size="14" '
           f'font-weight="bold">{escape(title)}</text>']
    for k in range(TICKS + 1):  # a round top over 5 steps gives round steps
        v = top * k / TICKS
        y = TOP + plot_h * (1 - k / TICKS)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
                   f'stroke="#dddddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" '
                   f'font-size="11">{escape(_fmt(round(v, 3), percent))}</text>')
    out.append(f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" y2="{TOP + plot_h}" '
               f'stroke="#333333"/>')
    out.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="#333333"/>')
    for i, label in enumerate(labels):
        out.append(f'<text x="{x_of(i):.1f}" y="{TOP + plot_h + 16}" text-anchor="middle" '
                   f'font-size="11">{escape(label)}</text>')
    out.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 6}" text-anchor="middle" '
               f'font-size="12">{escape(x_label)}</text>')
    out.append(f'<text transform="translate(14 {TOP + plot_h / 2}) rotate(-90)" '
               f'text-anchor="middle" font-size="12">{escape(y_label)}</text>')
    return out


def line_chart(title: str, labels: Sequence[str],
               series: Sequence[tuple[str, Sequence[float | None]]], *, x_label: str = "",
               y_label: str = "", percent: bool = False) -> str:
    """Lines over the same x labels; a None value leaves a gap."""
    values = [v for _, ys in series for v in ys if v is not None]
    top, x_of, _ = _axes(labels, values)
    plot_h = HEIGHT - TOP - BOTTOM

    def y_of(v: float) -> float:
        return TOP + plot_h * (1 - v / top)

    out = _frame(title, y_label, x_label, labels, top, percent, x_of)
    for s, (name, ys) in enumerate(series):
        color = COLORS[s % len(COLORS)]
        runs: list[list[tuple[float, float]]] = [[]]
        for i, v in enumerate(ys):
            if v is None:
                runs.append([])
            else:
                runs[-1].append((x_of(i), y_of(v)))
        for run in runs:
            if len(run) > 1:
                pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in run)
                out.append(f'<polyline points="{pts}" fill="none" stroke="{color}" '
                           f'stroke-width="2"/>')
            for x, y in run:
                out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{color}"/>')
        lx = LEFT + 10 + 190 * s
        out.append(f'<rect x="{lx}" y="{TOP - 4}" width="12" height="4" fill="{color}"/>')
        out.append(f'<text x="{lx + 16}" y="{TOP}" font-size="11">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def bar_chart(title: str, labels: Sequence[str], values: Sequence[float], *,
              x_label: str = "", y_label: str = "", percent: bool = False) -> str:
    """One bar per label, its value written above it."""
    top, x_of, slot = _axes(labels, values)
    plot_h = HEIGHT - TOP - BOTTOM
    out = _frame(title, y_label, x_label, labels, top, percent, x_of)
    bar_w = slot * 0.6
    for i, v in enumerate(values):
        h = plot_h * v / top
        out.append(f'<rect x="{x_of(i) - bar_w / 2:.1f}" y="{TOP + plot_h - h:.1f}" '
                   f'width="{bar_w:.1f}" height="{h:.1f}" fill="{COLORS[0]}"/>')
        out.append(f'<text x="{x_of(i):.1f}" y="{TOP + plot_h - h - 4:.1f}" text-anchor="middle" '
                   f'font-size="11">{escape(_fmt(round(v, 1), percent))}</text>')
    out.append("</svg>")
    return "\n".join(out)
