"""The live page's HTML: one document, its CSS and script inline (no CDN, nothing else to fetch but its
event stream), its words from the room's catalog, its colours those of the images (``bot.render.palette``).

Two layouts by media query: the projector's (a wide screen, 1920x1080 seen from the back of a hall: the
board the full height, the draw and the clock large beside it) and the phone's (360 px wide: one column).
The script draws what the server pushes; the countdown runs in the page from the deadline it was sent
(corrected by the gap between the server's clock and the page's).
"""

from __future__ import annotations

import html
import json

from core.board import Premium

from ..messages import say
from ..render import palette as p
from ..render.labels import CENTRE_STAR, premium_label
from .state import PREMIUM_CODES, premium_grid

# the catalog messages the page uses, with the placeholders the script fills
LABELS = {
    "title": {},
    "move": {"n": "{n}"},
    "draw": {},
    "kept": {},
    "new": {},
    "waiting_draw": {},
    "played_one": {"played": "{played}", "players": "{players}"},
    "played_other": {"played": "{played}", "players": "{players}"},
    "paused": {},
    "no_clock": {},
    "time_up": {},
    "top": {"n": "{n}", "top": "{top}", "points": "{points}"},
    "no_top": {"n": "{n}"},
    "results": {"n": "{n}"},
    "standings": {},
    "tops_total": {"total": "{total}"},
    "scores": {},
    "to_move": {"player": "{player}"},
    "bag": {"n": "{n}"},
    "finished": {},
    "gone": {},
    "revoked": {},
    "reconnecting": {},
    "call": {"seconds": "{seconds}"},
    "stopwatch": {"time": "{time}"},
    "overtime": {"time": "{time}", "points": "{points}"},
    "flagged": {},
    "simultane_title": {"code": "{code}"},
    "simultane_ranking": {"rounds": "{rounds}", "rooms": "{rooms}", "players": "{players}"},
    "simultane_hidden_together": {},
    "simultane_hidden_window": {},
    "room": {},
    "rooms_one": {"rooms": "{rooms}"},
    "rooms_other": {"rooms": "{rooms}"},
    "players_one": {"players": "{players}"},
    "players_other": {"players": "{players}"},
    "rounds_one": {"rounds": "{rounds}"},
    "rounds_other": {"rounds": "{rounds}"},
    "clock_paused": {},
}


def _rgb(colour: p.RGB) -> str:
    red, green, blue = colour[:3]
    return f"#{red:02x}{green:02x}{blue:02x}"


def labels(lang: str) -> dict[str, str]:
    """The page's words in ``lang``, placeholders left for the script."""
    words = {key: say(lang, f"web_{key}", **values) for key, values in LABELS.items()}
    for premium in Premium:
        code = PREMIUM_CODES[premium.name]
        if code:
            words[f"premium_{code}"] = premium_label(lang, premium)
    for column in ("col_player", "col_total", "col_gap"):  # the chat tables' column names
        words[column] = say(lang, column)
    words["star"] = CENTRE_STAR
    return words


def colours() -> str:
    """The palette as CSS custom properties."""
    square = {PREMIUM_CODES[k.name] or "plain": v for k, v in p.SQUARE.items()}
    ink = {PREMIUM_CODES[k.name] or "plain": v for k, v in p.SQUARE_INK.items()}
    names = {
        "page": p.PAGE,
        "ink": p.INK,
        "muted": p.MUTED,
        "rule": p.RULE,
        "frame": p.BOARD_FRAME,
        "line": p.SQUARE_LINE,
        "tile": p.TILE,
        "tile-edge": p.TILE_EDGE,
        "recent": p.TILE_RECENT,
        "recent-edge": p.RECENT_EDGE,
        "joker": p.JOKER_TILE,
        "joker-edge": p.JOKER_EDGE,
        "joker-ink": p.JOKER_INK,
        "kept": p.KEPT_TILE,
        "chip": p.CHIP,
        "turn": p.CHIP_TURN,
        "turn-ink": p.CHIP_TURN_INK,
        "stripe": p.ROW_STRIPE,
        "row-top": p.ROW_TOP,
        "zero-ink": p.ZERO_INK,
    }
    names.update({f"sq-{k}": v for k, v in square.items()})
    names.update({f"sq-ink-{k}": v for k, v in ink.items()})
    return ";".join(f"--{name}:{_rgb(value)}" for name, value in names.items())


def page_html(lang: str, events_url: str) -> str:
    """The whole page of a room in ``lang``, reading its state from ``events_url``."""
    config = {"labels": labels(lang), "premiums": premium_grid(), "events": events_url, "lang": lang}
    data = json.dumps(config, ensure_ascii=False).replace("<", "\\u003c")
    title = html.escape(say(lang, "web_title"))
    return (
        _TEMPLATE.replace("__LANG__", html.escape(lang))
        .replace("__TITLE__", title)
        .replace("__COLOURS__", colours())
        .replace("__CONFIG__", data)
    )


_TEMPLATE = """<!doctype html>
<html lang="__LANG__">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>__TITLE__</title>
<style>
:root{__COLOURS__}
*{box-sizing:border-box}
body{margin:0;background:var(--page);color:var(--ink);font-family:"DejaVu Sans",Verdana,sans-serif}
#app{display:grid;grid-template-columns:auto 1fr;gap:2vh;padding:2vh;height:100vh}
#board{display:grid;grid-template-columns:repeat(16,1fr);gap:2px;background:var(--frame);padding:6px;
  aspect-ratio:1/1;height:94vh;border-radius:6px}
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
#side{display:flex;flex-direction:column;gap:2vh;min-width:0;overflow:hidden}
h1{margin:0;font-size:4.4vh}
#status{font-size:3vh;color:var(--muted)}
#rack{display:flex;gap:1vh;flex-wrap:wrap;min-height:11vh}
#rack .tile{width:9vh;height:9vh;font-size:5.8vh}
#rack .gap{width:3vh}
#legend{font-size:2.2vh;color:var(--muted)}
#legend .tile{display:inline-flex;width:2.6vh;height:2.6vh;vertical-align:middle;margin:0 .6vh}
#clock{font-size:13vh;font-weight:bold;font-variant-numeric:tabular-nums;line-height:1}
#clock.low{color:var(--sq-tw)}
#call{font-size:7vh;font-weight:bold;color:var(--turn-ink);background:var(--sq-tw);border-radius:8px;
  padding:.5vh 2vh;align-self:flex-start}
#call:empty{display:none}
#clocks{display:flex;flex-direction:column;gap:1vh}
#clocks .chip{font-size:4.4vh;font-variant-numeric:tabular-nums;margin:0}
#app.classic #side>div:empty{display:none}#app.classic #rack{min-height:0}
#clocks .chip.over{color:var(--sq-tw)}
#clocks .chip.turn.over{color:var(--turn-ink);background:var(--sq-tw)}
#overall:empty{display:none}
#app.solo{grid-template-columns:1fr;max-width:1500px;margin:0 auto}#app.solo #board{display:none}
#app.solo #side>div:empty,#app.solo #tables{display:none}#app.solo #overall{font-size:3.4vh}
#app.solo #overall table{font-size:3.6vh}
#count{font-size:4vh}
#top{font-size:4vh;font-weight:bold}
table{border-collapse:collapse;font-size:2.8vh;width:100%}
td,th{padding:.4vh 1vh;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
tr:nth-child(even){background:var(--stripe)}
tr.best{background:var(--row-top)}
tr.zero td.n{color:var(--zero-ink)}
h2{margin:.5vh 0;font-size:3vh}
#tables{display:grid;grid-template-columns:1fr 1fr;gap:2vh;overflow:hidden}
.chip{display:inline-block;padding:.5vh 1.5vh;margin:.5vh;background:var(--chip);border-radius:6px;font-size:3.4vh}
.chip.turn{background:var(--turn);color:var(--turn-ink)}
#notice{font-size:3vh;color:var(--zero-ink)}
@media (max-width:700px){
  #app{display:block;height:auto;padding:8px}
  #board{width:100%;height:auto;padding:3px;gap:1px}
  .sq,.co{font-size:2.2vw}.sq .tile{font-size:5vw;border-width:1px}.sq .tile sub{display:none}
  #side{gap:10px;margin-top:10px}
  h1{font-size:22px}#status{font-size:16px}
  #rack{min-height:0;gap:5px}#rack .tile{width:11vw;height:11vw;font-size:7vw}#rack .gap{width:3vw}
  #legend{font-size:13px}#legend .tile{width:14px;height:14px}
  #clock{font-size:48px}#count,#top{font-size:18px}#call{font-size:26px}#clocks .chip{font-size:20px}
  table{font-size:15px}h2{font-size:17px}
  #tables{display:block}.chip{font-size:16px}#notice{font-size:16px}
  #app.solo #overall{font-size:16px}#app.solo #overall table{font-size:15px}#overall td,#overall th{padding:4px}
}
</style>
</head>
<body>
<div id="app">
<div id="board" role="img"></div>
<div id="side">
<h1 id="heading"></h1>
<div id="status"></div>
<div id="notice" role="status"></div>
<div id="rack" aria-live="polite"></div>
<div id="legend"></div>
<div id="clock"></div>
<div id="call" role="status"></div>
<div id="clocks"></div>
<div id="count" aria-live="polite"></div>
<div id="top"></div>
<div id="tables"><div id="results"></div><div id="standings"></div></div>
<div id="overall"></div>
</div>
</div>
<script>
"use strict";
const CONFIG = __CONFIG__;
const L = CONFIG.labels;
const plural = new Intl.PluralRules(CONFIG.lang);
let state = null, version = -1, skew = 0;
function fill(text, values){return text.replace(/\\{(\\w+)\\}/g,(m,k)=>k in values?String(values[k]):m);}
function el(tag, cls, text){const e=document.createElement(tag);if(cls)e.className=cls;
  if(text!==undefined)e.textContent=text;return e;}
function tile(t, cls){const e=el("div","tile"+(cls?" "+cls:""),t[0]);if(t[1])e.appendChild(el("sub","",t[1]));return e;}
function drawBoard(cells, lit, coords){
  const board=document.getElementById("board");board.textContent="";
  board.appendChild(el("div","co",""));
  for(let c=0;c<15;c++)board.appendChild(el("div","co",coords?coords.cols[c]:""));
  const at={};for(const c of cells)at[c[0]*15+c[1]]=c;
  const litSet=new Set((lit||[]).map(x=>x[0]*15+x[1]));
  for(let r=0;r<15;r++){const codes=CONFIG.premiums[r].split(" ");
    board.appendChild(el("div","co",coords?coords.rows[r]:""));
    for(let c=0;c<15;c++){const code=codes[c]===".."?"":(codes[c]==="."?"":codes[c]);
      const sq=el("div","sq"+(code?" "+code:""));
      const cell=at[r*15+c];
      if(cell){sq.appendChild(tile([cell[2],cell[3]],(cell[4]?"joker ":"")+(litSet.has(r*15+c)?"lit":"")));}
      else if(r===7&&c===7){sq.textContent=L.star;}
      else if(code){sq.textContent=L["premium_"+code];}
      board.appendChild(sq);}}
}
function table(title, head, rows){
  const box=document.createElement("div");box.appendChild(el("h2","",title));
  const t=el("table");
  if(head.length){const tr=el("tr");head.forEach(h=>tr.appendChild(el("th",h.n?"n":"",h.text)));t.appendChild(tr);}
  const numeric=(v,i)=>head.length?head[i].n:i>0&&typeof v==="number";
  for(const row of rows){const tr=el("tr",row.cls||"");
    row.cells.forEach((v,i)=>tr.appendChild(el("td",numeric(v,i)?"n":"",String(v))));t.appendChild(tr);}
  box.appendChild(t);return box;
}
function serverNow(){return Date.now()/1000+skew;}
function mmss(seconds){const whole=Math.max(0,Math.ceil(seconds-1e-9));
  return Math.floor(whole/60)+":"+String(whole%60).padStart(2,"0");}
function roundLeft(){
  if(!state||state.kind!=="duplicate"||!state.round||!state.round.draw)return null;
  const r=state.round;
  if(r.paused_left!==null&&r.paused_left!==undefined)return null;
  if(r.deadline===null||r.deadline===undefined)return null;
  return Math.max(0,Math.ceil(r.deadline-serverNow()));
}
function clockText(){
  if(!state||state.kind!=="duplicate"||!state.round||!state.round.draw)return "";
  const r=state.round;
  if(r.paused_left!==null&&r.paused_left!==undefined)return L.paused;
  if(r.deadline===null||r.deadline===undefined)return L.no_clock;
  const left=roundLeft();
  if(left<=0)return L.time_up;
  return mmss(left);
}
function callText(){
  const left=roundLeft();const r=state&&state.round;
  if(left===null||!r.call||left<=0||left>r.call)return "";
  return fill(L.call,{seconds:Math.round(r.call)});
}
function playerClock(c, p){
  if(p.flagged)return p.player+" "+L.flagged;
  let left=p.left;
  if(c.running===p.player&&!c.paused&&!state.finished)left-=serverNow()-state.now;
  if(left>=0)return p.player+" "+mmss(left);
  let points=p.points;
  if(c.overtime_per_minute){let minutes=Math.ceil(-left/60-1e-6);
    if(c.overtime_limit)minutes=Math.min(minutes,c.overtime_limit);points=minutes*c.overtime_per_minute;}
  return p.player+" "+fill(L.overtime,{time:mmss(-left),points:points});
}
function tickClocks(){
  const box=document.getElementById("clocks");
  if(!state||state.kind!=="classic"||!state.clocks){if(box.textContent)box.textContent="";return;}
  const c=state.clocks;const rows=[];
  if(c.mode==="stopwatch"){let left=c.move_left;
    if(c.running&&!c.paused&&!state.finished)left-=serverNow()-state.now;
    const who=c.running||state.to_move||"-";
    rows.push({text:who+" · "+fill(L.stopwatch,{time:mmss(left)})+(c.paused?" · "+L.clock_paused:""),
      cls:"turn"+(left<=0?" over":"")});}
  else{for(const p of c.players){const text=playerClock(c,p);
    rows.push({text:text+(c.paused&&p.player===state.to_move?" · "+L.clock_paused:""),
      cls:(p.player===c.running?"turn":"")+(text.includes("+")||p.flagged?" over":"")});}}
  if(box.children.length!==rows.length){box.textContent="";for(const _ of rows)box.appendChild(el("div","chip"));}
  rows.forEach((row,i)=>{const e=box.children[i];if(e.textContent!==row.text)e.textContent=row.text;
    const cls="chip "+row.cls;if(e.className!==cls.trim())e.className=cls.trim();});
}
function tick(){const c=document.getElementById("clock");const t=clockText();
  if(c.textContent!==t)c.textContent=t;
  const call=document.getElementById("call");const ct=callText();if(call.textContent!==ct)call.textContent=ct;
  const left=roundLeft();const r=state&&state.round;
  c.classList.toggle("low",left!==null&&left<=((r&&r.call)||30));
  tickClocks();}
function overallTable(o){
  const box=document.getElementById("overall");box.textContent="";
  if(!o)return;
  if(state.kind!=="simultane")box.appendChild(el("h2","",fill(L.simultane_title,{code:o.code})));
  if(!o.rounds){box.appendChild(el("div","",o.window?L.simultane_hidden_window:L.simultane_hidden_together));return;}
  const counted=(k,n)=>fill(plural.select(n)==="one"?L[k+"_one"]:L[k+"_other"],{[k]:n});
  box.appendChild(el("div","",fill(L.simultane_ranking,{rounds:counted("rounds",o.rounds),
    rooms:counted("rooms",o.rooms),players:counted("players",o.standings.length)})));
  const pc=new Intl.NumberFormat(CONFIG.lang,{minimumFractionDigits:1,maximumFractionDigits:1});
  const head=[{text:"#"},{text:L.col_player},{text:L.room},{text:L.col_total,n:1},{text:L.col_gap,n:1},{text:"%",n:1}];
  box.appendChild(table("",head,o.standings.map((x,i)=>({cls:i===0?"best":"",
    cells:[x.place,x.player,x.room,x.total,x.gap>0?"+"+x.gap:String(x.gap),pc.format(x.percent)]}))).lastChild);
}
function render(){
  const s=state;const q=id=>document.getElementById(id);
  q("notice").textContent="";
  if(s.kind==="none"){q("heading").textContent=L.gone;return;}
  overallTable(s.overall||null);
  if(s.kind==="simultane"){q("heading").textContent=fill(L.simultane_title,{code:s.overall.code});
    document.getElementById("app").classList.add("solo");return;}
  drawBoard(s.board, s.kind==="duplicate"?(s.last?s.last.top_cells:[]):s.top_cells, s.coords);
  q("status").textContent=s.finished?L.finished:"";
  const rack=q("rack");rack.textContent="";q("legend").textContent="";q("count").textContent="";q("top").textContent="";
  q("results").textContent="";q("standings").textContent="";
  document.getElementById("app").classList.toggle("classic",s.kind==="classic");
  if(s.kind==="classic"){
    q("heading").textContent=s.to_move?fill(L.to_move,{player:s.to_move}):L.title;
    const box=document.createElement("div");
    for(const p of s.scores){
      box.appendChild(el("span","chip"+(p.player===s.to_move?" turn":""),p.player+" "+p.total));}
    rack.appendChild(box);
    if(s.last_move)q("top").textContent=s.last_move.player+" : "+s.last_move.move+" ("+s.last_move.points+")";
    q("count").textContent=fill(L.bag,{n:s.bag});
    tickClocks();
    return;
  }
  const r=s.round;
  const n=r?r.number:(s.last?s.last.number:1);
  q("heading").textContent=fill(L.move,{n:n});
  if(r&&r.draw){
    for(const t of r.draw.kept)rack.appendChild(tile(t,"kept"));
    if(r.draw.kept.length)rack.appendChild(el("span","gap"));
    for(const t of r.draw.new)rack.appendChild(tile(t,"new"));
    if(r.draw.kept.length){const lg=q("legend");lg.appendChild(tile(["",0],"kept"));lg.append(L.kept);
      lg.appendChild(tile(["",0],""));lg.append(L.new);}
    const form=plural.select(r.played)==="one"?L.played_one:L.played_other;
    q("count").textContent=fill(form,{played:r.played,players:r.players});
  } else if(r&&!s.finished){q("count").textContent=L.waiting_draw;}
  if(s.last){
    const last=s.last;
    q("top").textContent=last.top?fill(L.top,{n:last.number,top:last.top,points:last.top_points}):fill(L.no_top,{n:last.number});
    q("results").appendChild(table(fill(L.results,{n:last.number}),[],last.results.map(x=>({
      cls:x.score===last.top_points&&x.score>0?"best":(x.score===0?"zero":""),cells:[x.player,x.move,x.score]}))));
  }
  if(s.standings.length){
    q("standings").appendChild(table(L.standings,[],s.standings.map((x,i)=>({cls:i===0?"best":"",
      cells:[x.place,x.player,x.total,x.gap?String(x.gap):"0"]}))));
  }
}
function connect(){
  const source=new EventSource(CONFIG.events);
  source.addEventListener("state",e=>{const data=JSON.parse(e.data);
    if(data.version<version)return;version=data.version;state=data.state;skew=state.now-Date.now()/1000;
    render();tick();});
  source.addEventListener("revoked",()=>{source.close();document.getElementById("notice").textContent=L.revoked;
    state=null;document.getElementById("clock").textContent="";});
  source.onerror=()=>{if(source.readyState===EventSource.CLOSED){setTimeout(connect,2000);}
    if(state)document.getElementById("notice").textContent=L.reconnecting;};
  source.onopen=()=>{document.getElementById("notice").textContent="";};
}
drawBoard([],[]);connect();setInterval(tick,250);
</script>
</body>
</html>
"""
