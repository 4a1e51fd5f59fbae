"""TableFirst: Ready's table box, when the table decides the list and rule (issue 27)."""

from __future__ import annotations

from textual.widgets import Static

from adjudicator.errors import EntryError

from kiosk.widgets.entry_input import EntryInput


class TableFirst:
    """For ReadyScreen: a station serving divisions on different lists asks for the table first,
    says that table's division, list and rule, and judges with them; it never guesses."""

    def _focus_start(self) -> None:
        """The words box; first the table box when the table decides the list (cleared)."""
        # Screen.set_focus, not Widget.focus(), which waits behind the keys already read: the
        # next key read goes to the box focused here (a table, ENTER and the words in one read)
        if not self._by_table:
            self.set_focus(self.query_one(EntryInput))
            return
        box = self.query_one("#table")
        box.value = ""
        self._show_lists()
        self.set_focus(box)

    def _show_lists(self) -> None:
        """Every served division's list, or the table's when one is typed (kept as typed)."""
        from adjudicator.event.tables import check_table

        typed = self.query_one("#table").value
        try:
            table = check_table(typed) if typed else ""
        except EntryError:
            table = ""
        if table and self._show_table(table):
            return
        lexicon = self.query_one("#lexicon", Static)
        lexicon.update(self._lists_text())
        lexicon.set_class(any(not s.lexicon.identity.recognised
                              for s in self.app.station.lists.served), "unrecognised")
        self.query_one("#rule", Static).update(self._rule_text())

    def _rule_text(self) -> str:
        if self._by_table:
            return "Challenge rule: the table's division's"
        return f"Challenge rule: {self.app.station.lists.choose().rule.label}"  # what judges

    def _lists_text(self) -> str:
        return f"Lexicon: by table · {self.app.station.lists.describe()}"

    def on_number_input_next(self, event) -> None:
        """ENTER in the table box: the table's division and list said, then the words."""
        event.stop()
        if self._check_table():
            self.set_focus(self.query_one(EntryInput))

    def _check_table(self) -> bool:
        from adjudicator.event.tables import check_table

        text = self.query_one("#table").value
        try:
            table = check_table(text)
            if not table:
                raise EntryError("table", "Type the table number first: each division here "
                                 "judges with its own list.")
        except EntryError as e:
            self._say(str(e), error=True)
            self.set_focus(self.query_one("#table"))
            return False
        if not self._show_table(table):
            self.set_focus(self.query_one("#table"))
            return False
        self._say("", error=False)
        return True

    def _show_table(self, table: str) -> bool:
        """TABLE's division, list and rule said above the words; False (and why, said) when no
        division served here plays there."""
        try:
            choice = self.app.station.lists.choose(table)
        except EntryError as e:
            self._say(str(e), error=True)
            return False
        lexicon = self.query_one("#lexicon", Static)
        lexicon.update(f"Table {table} · Division {choice.division} · Lexicon: "
                       f"{choice.lexicon.identity.describe()}")
        lexicon.set_class(not choice.lexicon.identity.recognised, "unrecognised")
        self.query_one("#rule", Static).update(f"Challenge rule: {choice.rule.label}")
        return True
