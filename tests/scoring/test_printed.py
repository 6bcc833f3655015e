"""The tables a tool printed, read into rows of cells."""

from agentbench.scoring.printed import tables
from tests.scoring.test_tables import DF, PDB


def test_df_s_two_word_last_column_is_a_header() -> None:
    (table,) = tables([DF])
    assert table.header[-1] == "Mounted on"
    assert ("/dev/nvme1n1", "200G", "192G", "8.0G", "96%", "/var") in table.rows


def test_column_names_of_two_words_keep_their_cells() -> None:
    events = (
        "LAST SEEN   TYPE      REASON    OBJECT        MESSAGE\n"
        "12m         Warning   Evicted   pod/idx-9tq   The node was low on resource: disk.\n"
        "47m         Warning   Evicted   pod/idx-kx7   The node was low.\n"
    )
    assert tables([events]) == []  # the free-text rows are left to the line-level checks
    (table,) = tables([events], aligned=True)
    assert table.header == ("LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE")
    assert table.rows[0][-1] == "The node was low on resource: disk."
    (pdb,) = tables([PDB], least=1, aligned=True)
    assert dict(zip(pdb.header, pdb.rows[0], strict=True))["ALLOWED DISRUPTIONS"] == "1"
