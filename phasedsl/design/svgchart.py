"""Small SVG charts written by hand (no plotting library): a line chart, a bar chart and a
chart of two measures on their own scales, as text to put inline in an HTML page.  Pure:
values in, markup out."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from itertools import pairwise

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 34, 44
TICKS = 5
COLORS = ("#1f6fb4", "#d9641e", "#2e8b3d", "#8e44ad", "#7f7f7f")
FLAG_COLOR, MAYBE_COLOR = "#c0392b", "#b7791f"


def _nice_top(value: float, steps: Sequence[float] = (1, 2, 2.5, 5, 10)) -> float:
    """A round axis maximum at or above ``value``."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in steps:
        if value <= step * power:
            return step * power
    return 10 * power


def _fmt(value: float, percent: bool) -> str:
    if percent:
        return f"{value:g}%"
    return f"{value:g}"


def _axes(labels: Sequence[str], values: Sequence[float], right: int = RIGHT):
    """The value axis's top, each label's x and the width of one label's slot."""
    slot = (WIDTH - LEFT - right) / max(1, len(labels))

    def x_of(i: int) -> float:
        return LEFT + slot * (i + 0.5)

    return _nice_top(max(values, default=1.0)), x_of, slot


def _frame(title: str, y_label: str, x_label: str, labels: Sequence[str], top: float,
           percent: bool, x_of, right: int = RIGHT, head: int = TOP,
           label_colors: Mapping[int, str] | None = None,
           axis_color: str = "#222222") -> list[str]:
    """Title, value axis (left), gridlines and x labels; ``head``: the plot's top edge."""
    plot_h = HEIGHT - head - BOTTOM
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
           f'role="img" aria-label="{escape(title)}" class="chart">',
           f'<title>{escape(title)}</title>',
           f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
           f'<text x="{WIDTH / 2}" y="20" text-anchor="middle" font-size="14" '
           f'font-weight="bold">{escape(title)}</text>']
    for k in range(TICKS + 1):  # a round top over 5 steps gives round steps
        v = top * k / TICKS
        y = head + plot_h * (1 - k / TICKS)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - right}" y2="{y:.1f}" '
                   f'stroke="#dddddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" '
                   f'font-size="11" fill="{axis_color}">{escape(_fmt(round(v, 3), percent))}</text>')
    out.append(f'<line x1="{LEFT}" y1="{head + plot_h}" x2="{WIDTH - right}" y2="{head + plot_h}" '
               f'stroke="#333333"/>')
    out.append(f'<line x1="{LEFT}" y1="{head}" x2="{LEFT}" y2="{head + plot_h}" stroke="#333333"/>')
    for i, label in enumerate(labels):
        color = (label_colors or {}).get(i)
        paint = f' fill="{color}" font-weight="bold"' if color else ""
        out.append(f'<text x="{x_of(i):.1f}" y="{head + plot_h + 16}" text-anchor="middle" '
                   f'font-size="11"{paint}>{escape(label)}</text>')
    out.append(f'<text x="{(LEFT + WIDTH - right) / 2}" y="{HEIGHT - 6}" text-anchor="middle" '
               f'font-size="12">{escape(x_label)}</text>')
    out.append(f'<text transform="translate(14 {head + plot_h / 2}) rotate(-90)" '
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


Series = tuple[str, Sequence[float | None], Sequence[tuple[float, float] | None] | None]


def two_scale_chart(title: str, labels: Sequence[str], left: Series, right: Series, *,
                    flags: Mapping[int, bool | str] | None = None, x_label: str = "",
                    flag_text: tuple[str, str] = ("easier than the one before",
                                                  "maybe easier")) -> str:
    """Two percentages over the same x labels, each on its own scale (left and right
    axes, each topped at its own round maximum) so that a measure of a few percent is not
    flattened by one near 100; each point with its 95% interval as a whisker.  ``flags``
    marks labels (True: a filled triangle over the right series; "maybe": a hollow one),
    and colors their x label."""
    flags = {i: f for i, f in (flags or {}).items() if f}
    margin, head = 56, 62
    plot_h = HEIGHT - head - BOTTOM

    def top_of(series: Series) -> float:
        _, ys, cis = series
        vals = [v for v in ys if v is not None]
        vals += [hi for ci in (cis or ()) if ci is not None for hi in ci[1:]]
        # finer steps than the other charts': a top close above the largest value is what
        # keeps a measure of a few percent from being flattened (each tick stays round)
        return _nice_top(max(vals, default=1.0), (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10))

    tops = (top_of(left), top_of(right))
    _, x_of, _ = _axes(labels, [], margin)
    colors = {i: FLAG_COLOR if f is True else MAYBE_COLOR for i, f in flags.items()}
    # each axis's tick labels take its series' color
    out = _frame(title, left[0], x_label, labels, tops[0], True, x_of, margin, head, colors,
                 COLORS[0])
    for k in range(TICKS + 1):
        v = tops[1] * k / TICKS
        y = head + plot_h * (1 - k / TICKS)
        out.append(f'<text x="{WIDTH - margin + 6}" y="{y + 4:.1f}" font-size="11" '
                   f'fill="{COLORS[2]}">{escape(_fmt(round(v, 3), True))}</text>')
    out.append(f'<line x1="{WIDTH - margin}" y1="{head}" x2="{WIDTH - margin}" '
               f'y2="{head + plot_h}" stroke="#333333"/>')
    out.append(f'<text transform="translate({WIDTH - 12} {head + plot_h / 2}) rotate(90)" '
               f'text-anchor="middle" font-size="12">{escape(right[0])}</text>')
    points: list[dict[int, tuple[float, float]]] = []
    for s, (series, top, color) in enumerate(((left, tops[0], COLORS[0]),
                                               (right, tops[1], COLORS[2]))):
        name, ys, cis = series

        def y_of(v: float, top: float = top) -> float:
            return head + plot_h * (1 - v / top)

        at: dict[int, tuple[float, float]] = {}
        run: list[str] = []
        for i, v in enumerate(ys):
            if v is None:
                if len(run) > 1:
                    out.append(f'<polyline points="{" ".join(run)}" fill="none" '
                               f'stroke="{color}" stroke-width="2"/>')
                run = []
                continue
            at[i] = (x_of(i), y_of(v))
            run.append(f"{x_of(i):.1f},{y_of(v):.1f}")
        if len(run) > 1:
            out.append(f'<polyline points="{" ".join(run)}" fill="none" stroke="{color}" '
                       f'stroke-width="2"/>')
        for i, (x, y) in at.items():
            ci = cis[i] if cis else None
            if ci is not None and ci[1] > ci[0]:
                y1, y2 = y_of(ci[0]), y_of(ci[1])
                out.append(f'<path d="M{x:.1f} {y1:.1f}V{y2:.1f}M{x - 4:.1f} {y1:.1f}h8'
                           f'M{x - 4:.1f} {y2:.1f}h8" stroke="{color}" stroke-width="1.2" '
                           'fill="none"/>')
            shape = (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{color}"/>' if s == 0 else
                     f'<rect x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7" '
                     f'fill="{color}"/>')
            out.append(shape)
        points.append(at)
        lx = LEFT + 10 + 290 * s
        out.append(f'<rect x="{lx}" y="{head - 24}" width="12" height="4" fill="{color}"/>')
        out.append(f'<text x="{lx + 16}" y="{head - 20}" font-size="11">{escape(name)}</text>')
    for i, flag in sorted(flags.items()):
        x, y = points[1].get(i, (x_of(i), head + 12))
        y = max(head + 4, y - 14)
        color = colors[i]
        fill = color if flag is True else "#ffffff"
        tip = flag_text[0] if flag is True else flag_text[1]
        out.append(f'<path d="M{x - 6:.1f} {y - 9:.1f}h12l-6 10z" fill="{fill}" '
                   f'stroke="{color}" stroke-width="1.5"><title>{escape(labels[i])}: '
                   f"{escape(tip)}</title></path>")
    if flags:
        lx = LEFT + 10
        out.append(f'<path d="M{lx} {head - 14}h12l-6 10z" fill="{FLAG_COLOR}"/>')
        out.append(f'<text x="{lx + 16}" y="{head - 5}" font-size="11">{escape(flag_text[0])}'
                   "</text>")
        if any(f != True for f in flags.values()):  # noqa: E712 (a flag is True or "maybe")
            out.append(f'<path d="M{lx + 290} {head - 14}h12l-6 10z" fill="#ffffff" '
                       f'stroke="{MAYBE_COLOR}" stroke-width="1.5"/>')
            out.append(f'<text x="{lx + 306}" y="{head - 5}" font-size="11">'
                       f"{escape(flag_text[1])}</text>")
    out.append("</svg>")
    return "\n".join(out)


def board_track(spaces: Sequence[int | str], labels: Mapping[int, str], *, per_row: int = 10,
                title: str = "The board") -> str:
    """A board game's board as a track of spaces that snakes down the page (left to right,
    then right to left): each space a box with its number, its phase number (or T for a
    twist space) and, beside the track, what each phase number stands for."""
    cell, gap, top = 52, 12, 34
    rows = max(1, math.ceil(len(spaces) / per_row))
    width = per_row * cell + (per_row - 1) * gap + 2 * 16
    height = top + rows * (cell + gap) + 16
    out = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} '
           f'{height}" role="img" aria-label="{escape(title)}">',
           f'<text x="16" y="20" font-size="14" font-weight="bold">{escape(title)}</text>']
    centres = []
    for i, space in enumerate(spaces):
        row, k = divmod(i, per_row)
        col = k if row % 2 == 0 else per_row - 1 - k
        x, y = 16 + col * (cell + gap), top + row * (cell + gap)
        centres.append((x + cell / 2, y + cell / 2))
        twist = space == "twist"
        fill = "#fdf5e6" if twist else "#eef4fb"
        edge = "#b7791f" if twist else "#1f6fb4"
        where = "start" if i == 0 else "finish" if i == len(spaces) - 1 else ""
        name = "twist" if twist else f"phase {space}"
        tip = f"space {i + 1}: {name}" + (f" ({labels[space]})" if space in labels else "") \
            + (f", {where}" if where else "")
        out.append(f'<g><title>{escape(tip)}</title><rect x="{x}" y="{y}" width="{cell}" '
                   f'height="{cell}" rx="8" fill="{fill}" stroke="{edge}" stroke-width="2"/>'
                   f'<text x="{x + 6}" y="{y + 14}" font-size="10" fill="#666">{i + 1}</text>'
                   f'<text x="{x + cell / 2}" y="{y + cell / 2 + 7}" font-size="20" '
                   f'text-anchor="middle" fill="{edge}">{"T" if twist else escape(str(space))}'
                   f'</text>'
                   + (f'<text x="{x + cell / 2}" y="{y + cell - 4}" font-size="9" '
                      f'text-anchor="middle" fill="#444">{where}</text>' if where else "")
                   + "</g>")
    for (x1, y1), (x2, y2) in pairwise(centres):
        # (a short joint between neighbouring boxes, under them in the drawing order)
        out.insert(2, f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" '
                      'stroke="#bbb" stroke-width="3"/>')
    out.append("</svg>")
    return "\n".join(out)
