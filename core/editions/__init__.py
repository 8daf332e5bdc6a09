"""The editions that ship with Arbitre, as data: ``index.json`` lists their codes in menu order, ``CODE.json``
describes each (see ``core.edition``)."""
