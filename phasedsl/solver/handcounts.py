"""A hand as card counts, with the aggregates that class capacities read."""

from __future__ import annotations

from collections.abc import Iterable

from ..model.cards import Card
from .classes import Tables, best_window, bits


class Hand:
    """A hand's cards as counts; the aggregates class capacities read are made on first use."""

    __slots__ = ("by_col", "by_cp", "by_num", "by_par", "cnt", "col_nums", "low", "nat", "nn",
                 "nums", "present", "skips", "wilds")

    def __init__(self, cnt: list[int], wilds: int, skips: int, tb: Tables) -> None:
        present = 0
        for t in range(len(cnt)):
            if cnt[t]:
                present |= 1 << t
        self.cnt, self.wilds, self.skips, self.present = cnt, wilds, skips, present
        self.nat = sum(cnt)
        self.nn, self.low = tb.nn, tb.deck.low
        self.by_num = self.by_cp = self.col_nums = self.nums = self.by_col = None

    @classmethod
    def of(cls, hand: Iterable[Card], tb: Tables) -> Hand:
        """Count a hand in one pass, reading card fields directly (the hot path)."""
        nn = tb.nn
        card_type = tb.card_type
        cnt = [0] * (tb.nc * nn)
        by_num = [0] * nn
        present = wilds = skips = 0
        c = None
        try:
            for c in hand:
                if c.wild:
                    wilds += 1
                elif c.skip:
                    skips += 1
                else:
                    t, bit, ni = card_type[c.color][c.number]
                    cnt[t] += 1
                    by_num[ni] += 1
                    present |= bit
        except (KeyError, TypeError, AttributeError):
            # (checked here, not before: a try costs nothing until something is not a card)
            from ..model.coerce import as_cards, not_cards

            if type(hand) in (list, tuple) and not isinstance(c, Card):
                read = as_cards(hand, tb.deck, "the hand")  # card strings among them
                return cls.of(read, tb)
            raise not_cards(hand, c, tb.deck) from None
        h = cls.__new__(cls)
        h.cnt = cnt
        h.by_num = by_num
        h.present = present
        h.wilds = wilds
        h.skips = skips
        h.nat = sum(by_num)
        h.nn = nn
        h.low = tb.deck.low
        h.by_cp = h.col_nums = h.nums = h.by_col = None
        return h

    @classmethod
    def counted(cls, cnt: list[int], present: int, wilds: int, skips: int, tb: Tables,
                by_num: list[int] | None = None) -> Hand:
        """A hand from counts already made, with their presence mask (no second pass)."""
        h = cls.__new__(cls)
        h.cnt, h.wilds, h.skips, h.present = cnt, wilds, skips, present
        h.nat = sum(cnt) if by_num is None else sum(by_num)
        h.nn, h.low = tb.nn, tb.deck.low
        h.by_num = by_num
        h.by_cp = h.col_nums = h.nums = h.by_col = None
        return h

    def to_place(self, total: int, floor: int) -> int:
        """Naturals to place for a phase of ``total`` cards (bar wild and skip parts) whose
        natural minimums add up to ``floor``: what the wilds leave empty, at least that."""
        need = total - self.wilds
        return need if need > floor else floor

    # Each aggregate is made on first use, from the few types present.
    def _by_num(self) -> list[int]:
        if self.by_num is None:
            nn, cnt = self.nn, self.cnt
            out = [0] * nn
            m = self.present
            while m:
                low = m & -m
                t = low.bit_length() - 1
                out[t % nn] += cnt[t]
                m ^= low
            self.by_num = out
        return self.by_num

    def _by_cp(self) -> list[int]:
        if self.by_cp is None:
            nn, cnt, low = self.nn, self.cnt, self.low
            out = [0] * (2 * (len(cnt) // nn))
            for t in bits(self.present):
                ci, ni = divmod(t, nn)
                out[2 * ci + ((ni + low) & 1)] += cnt[t]
            self.by_cp = out
            self.by_par = [sum(out[0::2]), sum(out[1::2])]
        return self.by_cp

    def _by_col(self) -> list[int]:
        if self.by_col is None:
            cnt, nn = self.cnt, self.nn
            self.by_col = [sum(cnt[i:i + nn]) for i in range(0, len(cnt), nn)]
        return self.by_col

    def _col_nums(self) -> list[int]:
        if self.col_nums is None:
            nn = self.nn
            full = (1 << nn) - 1
            self.col_nums = [(self.present >> (ci * nn)) & full
                             for ci in range(len(self.cnt) // nn)]
            nums = 0
            for m in self.col_nums:
                nums |= m
            self.nums = nums
        return self.col_nums

    def number_bits(self) -> int:
        """The numbers held, as bits of number indices."""
        if self.nums is None:
            m, nn = self.present, self.nn
            nums = 0
            while m:
                nums |= m
                m >>= nn
            self.nums = nums & ((1 << nn) - 1)
        return self.nums

    def counts(self, agg: str) -> list[int]:
        """For a counting aggregate ("num", "type", "col", "cp", "par"): the cards the
        hand holds for each of its indices."""
        if agg == "num":
            return self.by_num if self.by_num is not None else self._by_num()
        if agg == "type":
            return self.cnt
        if agg == "col":
            return self._by_col()
        self._by_cp()
        return self.by_cp if agg == "cp" else self.by_par

    def best_cap(self, agg: str, size: int, nn: int, wrap: bool = False) -> int:
        """An upper bound on the best capacity of any class of one group (often exact;
        ``wrap``: runs may wrap from the top number to the bottom)."""
        if agg == "run":
            return best_window(nn, size, wrap)[self.number_bits()]
        if agg == "crun":
            table = best_window(nn, size, wrap)
            return max([table[m] for m in self._col_nums()])
        if agg in ("mrun", "prun", "cprun", "bmask"):
            return size
        c = max(self.counts(agg))
        return c if c < size else size

    def caps(self, agg: str, values: tuple, size: int, nn: int,
             masks: tuple[int, ...]) -> list[int]:
        """Capacity of every class of one group, in class order."""
        if agg == "run":
            nums = self.number_bits()
            return [(nums & wb).bit_count() for wb in values]
        if agg == "crun":
            cn = self._col_nums()
            return [(cn[ci] & wb).bit_count() for ci, wb in values]
        if agg == "mrun":
            out = []
            present = self.present
            for m in masks:
                nums = 0
                for t in bits(m & present):
                    nums |= 1 << (t % nn)
                out.append(nums.bit_count())
            return out
        if agg == "prun":  # two cards of each number of the window
            by_num = self.counts("num")
            return [sum(min(by_num[ni], 2) for ni in bits(wb)) for wb in values]
        if agg == "cprun":
            cnt = self.cnt
            return [sum(min(cnt[ci * nn + ni], 2) for ni in bits(wb)) for ci, wb in values]
        if agg == "bmask":  # any of the accepted cards, up to the size
            out = []
            for m in masks:
                k = sum(self.cnt[t] for t in bits(m & self.present))
                out.append(k if k < size else size)
            return out
        src = self.counts(agg)
        return [src[i] if src[i] < size else size for i in values]
