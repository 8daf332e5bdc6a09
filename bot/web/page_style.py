"""The live page's CSS (``bot.web.page``), its colours given as custom properties (``__COLOURS__``).

The projector's layout (over 700 px wide): the board the full height on the left; beside it the move's
heading, the draw, the clock, the count and the top, then the tables, each a ``.pager`` of a fixed share of
the height whose rows the script shows a page at a time (the move's results and the room's standings side by
side, a simultané's overall ranking under them: both always readable; a game over, ``.over``: the standings
first, larger). Numbers keep their width, names are cut short ("…") when a column is too narrow. Sizes in
``vh``, so that the page reads the same on any projector. A room of a simultané (``.simul``) draws its rack
and clock smaller, the clock and the count on one line, for the two rankings; the organiser's page
(``.solo``) has no board. The phone's layout (700 px wide or less): one column (the room's standings, then
the overall ranking, then the move's results), every row shown, the page scrolls.
"""

from __future__ import annotations

STYLE = """:root{__COLOURS__}
*{box-sizing:border-box}
body{margin:0;background:var(--page);color:var(--ink);font-family:"DejaVu Sans",Verdana,sans-serif}
#app{display:grid;grid-template-columns:auto 1fr;gap:2vh;padding:2vh;height:100vh}
#board{display:grid;grid-template-columns:repeat(16,1fr);gap:2px;background:var(--frame);padding:6px;
  aspect-ratio:1/1;height:96vh;border-radius:6px}
.co{display:flex;align-items:center;justify-content:center;color:var(--page);font-weight:bold;font-size:2.2vh}
.sq{position:relative;display:flex;align-items:center;justify-content:center;background:var(--sq-plain);
  color:var(--sq-ink-plain);font-weight:bold;font-size:1.4vh;border-radius:2px}
.sq.tw{background:var(--sq-tw);color:var(--sq-ink-tw)}.sq.dw{background:var(--sq-dw);color:var(--sq-ink-dw)}
.sq.tl{background:var(--sq-tl);color:var(--sq-ink-tl)}.sq.dl{background:var(--sq-dl);color:var(--sq-ink-dl)}
.tile{background:var(--tile);color:var(--ink);border:2px solid var(--tile-edge);border-radius:4px;
  display:flex;align-items:center;justify-content:center;position:relative;font-weight:bold}
.sq .tile{position:absolute;inset:0;font-size:3.6vh}
.tile.joker{background:var(--joker);color:var(--joker-ink);border-color:var(--joker-edge)}
.tile.lit{background:var(--recent);border-color:var(--recent-edge)}
.tile.kept{background:var(--kept)}
.tile sub{position:absolute;right:6%;bottom:2%;font-size:45%;font-weight:normal}
#side{display:flex;flex-direction:column;gap:1.6vh;min-width:0;min-height:0;overflow:hidden}
#side>div:empty,#pace>div:empty{display:none}
#pace{display:none;flex-direction:column;gap:1.6vh}#pace:has(>div:not(:empty)){display:flex}
h1{margin:0;font-size:4.4vh}
#status{font-size:3vh;color:var(--muted)}
#rack{display:flex;gap:1vh;flex-wrap:wrap}
#rack .tile{width:9vh;height:9vh;font-size:5.8vh}
#rack .gap{width:3vh}
#legend{font-size:2.2vh;color:var(--muted)}
#legend .tile{display:inline-flex;width:2.6vh;height:2.6vh;vertical-align:middle;margin:0 .6vh}
#clock{font-size:13vh;font-weight:bold;font-variant-numeric:tabular-nums;line-height:1}
#clock.low{color:var(--sq-tw)}
#clock.words{font-size:5vh;line-height:1.2;color:var(--muted)}
#call{font-size:7vh;font-weight:bold;color:var(--turn-ink);background:var(--sq-tw);border-radius:8px;
  padding:.5vh 2vh;align-self:flex-start}
#clocks{display:flex;flex-direction:column;gap:1vh}
#clocks .chip{font-size:4.4vh;font-variant-numeric:tabular-nums;margin:0}
#clocks .chip.over{color:var(--sq-tw)}
#clocks .chip.turn.over{color:var(--turn-ink);background:var(--sq-tw)}
#count{font-size:4vh}
#top{font-size:4vh;font-weight:bold}
table{border-collapse:collapse;font-size:2.8vh;width:100%}
td,th{padding:.4vh 1vh;text-align:left;white-space:nowrap}
td.t,th.t{max-width:0;overflow:hidden;text-overflow:ellipsis}td.n,th.n,td.c,th.c{width:1%}td.c .name{max-width:7em}
th{color:var(--muted);font-weight:normal;font-size:85%}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
td .name,td .mark{display:block;overflow:hidden;text-overflow:ellipsis}
td .mark{color:var(--muted);font-size:70%;line-height:1.1}
tbody tr:nth-child(even){background:var(--stripe)}
tbody tr.best{background:var(--row-top)}
tr.zero td.n{color:var(--zero-ink)}
h2{margin:.5vh 0;font-size:3vh}
h2 .pages{float:right;font-size:75%;font-weight:normal;color:var(--muted)}
#tables{flex:1 1 0;min-height:16vh;display:grid;grid-auto-flow:column;grid-auto-columns:minmax(0,1fr);
  grid-template-rows:minmax(0,1fr);gap:2vh}
#tables>div:empty{display:none}#tables:has(#results:empty):has(#standings:empty){display:none}
#results,#standings,#overall{display:flex;flex-direction:column;min-height:0;min-width:0}
.tbl{flex:1 1 0;display:flex;flex-direction:column;min-height:0}
.pager{flex:1 1 0;min-height:0;overflow:hidden}
.pager tbody tr{height:var(--row,auto)}
#overall.ranked{flex:1.5 1 0}
#overall>div:not(.tbl){font-size:2.6vh}
#app.over #standings{order:-1}#app.over #standings table{font-size:3.4vh}#app.over #standings h2{font-size:3.4vh}
.chip{display:inline-block;padding:.5vh 1.5vh;margin:.5vh;background:var(--chip);border-radius:6px;font-size:3.4vh}
.chip.turn{background:var(--turn);color:var(--turn-ink)}
#notice{font-size:3vh;color:var(--zero-ink)}
#app.simul #rack .tile{width:7vh;height:7vh;font-size:4.5vh}
#app.simul #pace{flex-direction:row;flex-wrap:wrap;align-items:baseline;column-gap:4vh;row-gap:1vh}
#app.simul #clock{font-size:9vh}#app.simul #clock.words{font-size:4vh}
#app.simul #count,#app.simul #top{font-size:3.2vh}
#app.simul table{font-size:2.4vh}#app.simul h2{font-size:2.6vh}
#app.simul #overall>div:not(.tbl){font-size:2.2vh}
#app.simul #side{gap:1.2vh}
#app.solo{grid-template-columns:1fr;max-width:1500px;margin:0 auto}#app.solo #board{display:none}
#app.solo #tables{display:none}#app.solo #overall{flex:1 1 0;font-size:3.4vh}
#app.solo #overall table{font-size:3.4vh}#app.solo #overall h2{font-size:3.2vh}
@media (max-width:700px){
  #app{display:block;height:auto;padding:8px}
  #board{width:100%;height:auto;padding:3px;gap:1px}
  .sq,.co{font-size:2.2vw}.sq .tile{font-size:5vw;border-width:1px}.sq .tile sub{display:none}
  #side{gap:10px;margin-top:10px;overflow:visible}#pace,#app.simul #pace{flex-direction:column;gap:10px}
  h1{font-size:22px}#status{font-size:16px}
  #rack{gap:5px}#rack .tile,#app.simul #rack .tile{width:11vw;height:11vw;font-size:7vw}#rack .gap{width:3vw}
  #legend{font-size:13px}#legend .tile{width:14px;height:14px}
  #clock,#app.simul #clock{font-size:48px}#clock.words,#app.simul #clock.words{font-size:20px}
  #count,#top,#app.simul #count,#app.simul #top{font-size:18px}#call{font-size:26px}#clocks .chip{font-size:20px}
  table,#app.simul table,#app.over #standings table{font-size:15px}
  h2,#app.simul h2,#app.over #standings h2,#app.solo #overall h2{font-size:17px}
  td,th{white-space:normal}td.t,th.t,td.c .name{max-width:none}td .name{display:inline}td .mark{font-size:85%}
  #tables{display:contents}#standings,#app.over #standings{order:1}#overall{order:2}#results{order:3}
  #results,#standings,#overall,.tbl,.pager{display:block;overflow:visible}#tables,#overall.ranked{flex:none}
  .chip{font-size:16px}#notice{font-size:16px}
  #app.solo #overall,#overall>div:not(.tbl),#app.simul #overall>div:not(.tbl){font-size:15px}
  #overall table,#app.solo #overall table{font-size:13px}
  #overall td,#overall th{padding:4px 2px}
  #overall td.n,#overall th.n{padding-left:5px}#overall td.t,#overall th.t{padding-left:6px}
}
"""
