// Times scrabble-solver's solve() on the positions bench/bench_solver.py writes; see that script's docstring
// for how to build the solver from its sources (it is not shipped here: its licence forbids it).
//
// node bench/solver_driver.mjs BUNDLE.mjs JOB.json
// node bench/solver_driver.mjs BUNDLE.mjs --published SOURCE
//
// JOB.json: {"locale", "words" (a file, one word a line, the solver's characters), "repeat", "rounds",
// "ours": {"tiles": [[character, value, count]], "jokers", "bingo", "rack_size", "premiums": 15 rows of 15
// [letter multiplier, word multiplier]}, "positions": [{"rows": 15 strings (" " empty), "blanks": [[row, col]],
// "rack": [character or "?"]}]}. Prints one JSON line: the differences between the solver's game config and
// ours, the dictionary's build time, and per position the median CPU time of solve() (process.cpuUsage(), user
// plus system, every thread of the process: as Python's time.process_time), its median wall time
// (performance.now()), both the lowest over the rounds, the number of plays it lists and the best play.
//
// --published: reads the solver's own benchmark from its sources (SOURCE: the folder holding its packages/)
// when this runs, so that nothing of it is copied here: its scenarios (board, base rack, locale) and the
// figures its README publishes. Prints them as one JSON line.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [, , bundlePath, jobPath, source] = process.argv;
const solver = await import(pathToFileURL(bundlePath).href);

if (jobPath === '--published') {
  const folder = join(source, 'packages', 'solver');
  const text = readFileSync(join(folder, 'benchmarks', 'scenarios.ts'), 'utf8');
  const strings = (body) => [...body.matchAll(/'([^']*)'/g)].map((match) => match[1]);
  const arrays = Object.fromEntries(
    [...text.matchAll(/const (\w+) = \[([\s\S]*?)\];/g)].map((match) => [match[1], strings(match[2])]),
  );
  const scenarios = [
    ...text.matchAll(
      /\{\s*baseRack: (\w+),\s*boardRows: (\w+),\s*label: '([^']*)',\s*locale: Locale\.(\w+),?\s*\}/g,
    ),
  ].map((match) => ({
    rack: arrays[match[1]],
    rows: arrays[match[2]],
    label: match[3],
    locale: solver.Locale[match[4]],
  }));
  // the README's table: | Blanks | label... | then | 0 | 2 ms (1,559 results) | ...
  const readme = readFileSync(join(folder, 'README.md'), 'utf8').split('\n');
  const table = readme
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
  const labels = table[0].slice(1);
  const published = {};
  for (const row of table.slice(2)) {
    row.slice(1).forEach((cell, index) => {
      const match = cell.match(/^([\d.]+) (ms|s) \(([\d,]+) results\)$/);
      if (match) {
        published[labels[index]] ??= {};
        published[labels[index]][row[0]] = {
          ms: Number(match[1]) * (match[2] === 's' ? 1000 : 1),
          plays: Number(match[3].replaceAll(',', '')),
        };
      }
    });
  }
  const method = readme.find((line) => /^Median of/.test(line)) ?? '';
  console.log(JSON.stringify({ scenarios, published, method }));
  process.exit(0);
}

const job = JSON.parse(readFileSync(jobPath, 'utf8'));
const config = solver.getConfig(solver.Game.Scrabble, job.locale);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const differences = [];
const ours = job.ours;
const theirs = new Map(config.tiles.map((tile) => [tile.character, tile]));
for (const [character, value, count] of ours.tiles) {
  const tile = theirs.get(character);
  if (!tile) {
    differences.push(`tile ${character}: ours (value ${value}, ${count} in the bag), missing in the solver`);
    continue;
  }
  if (tile.score !== value) {
    differences.push(`tile ${character}: value ${value} ours, ${tile.score} the solver's`);
  }
  if (tile.count !== count) {
    differences.push(`tile ${character}: ${count} in the bag ours, ${tile.count} the solver's`);
  }
  theirs.delete(character);
}
for (const tile of theirs.values()) {
  differences.push(`tile ${tile.character}: the solver's (value ${tile.score}, ${tile.count} in the bag), not ours`);
}
if (config.blanksCount !== ours.jokers) {
  differences.push(`jokers: ${ours.jokers} ours, ${config.blanksCount} the solver's`);
}
if (config.blankScore !== 0) {
  differences.push(`a joker is worth ${config.blankScore} in the solver, 0 ours`);
}
if (config.bingo.score !== ours.bingo) {
  differences.push(`bingo: ${ours.bingo} ours, ${JSON.stringify(config.bingo)} the solver's`);
}
if (config.rackSize !== ours.rack_size) {
  differences.push(`rack: ${ours.rack_size} tiles ours, ${config.rackSize} the solver's`);
}
if (config.boardWidth !== 15 || config.boardHeight !== 15) {
  differences.push(`board: 15x15 ours, ${config.boardWidth}x${config.boardHeight} the solver's`);
}
for (let y = 0; y < 15; ++y) {
  for (let x = 0; x < 15; ++x) {
    const value = config.getCellBonusValue({ isEmpty: true, x, y });
    const [letter, word] = ours.premiums[y][x];
    if (value.characterMultiplier !== letter || value.wordMultiplier !== word) {
      differences.push(
        `square row ${y + 1} column ${x + 1}: letter x${letter} word x${word} ours, ` +
          `letter x${value.characterMultiplier} word x${value.wordMultiplier} the solver's`,
      );
    }
  }
}

const words = readFileSync(job.words, 'utf8').split('\n').filter(Boolean);
let started = performance.now();
const gaddag = solver.Gaddag.fromArray(words);
const buildMs = performance.now() - started;

const boardOf = (position) => {
  const blanks = new Set(position.blanks.map(([row, col]) => row * 15 + col));
  return solver.Board.fromJson(
    position.rows.map((row, y) =>
      [...row].map((character, x) =>
        character === ' '
          ? { isEmpty: true, tile: null, x, y }
          : { isEmpty: false, tile: { character, isBlank: blanks.has(y * 15 + x) }, x, y },
      ),
    ),
  );
};
const rackOf = (position) =>
  position.rack.map((character) =>
    character === '?'
      ? new solver.Tile({ character: solver.BLANK, isBlank: true })
      : new solver.Tile({ character, isBlank: false }),
  );

// one pass over every position first (the warm-up: the JIT compiles solve() on all classes), then --rounds passes
// timing each position --repeat times, each position's lowest median over the rounds kept
const found = job.positions.map((position) => {
  const plays = solver.solve(gaddag, config, boardOf(position), rackOf(position));
  let best = null;
  for (const play of plays) {
    if (best === null || play.points > best.points) {
      best = play;
    }
  }
  return { plays: plays.length, best };
});
const results = job.positions.map(() => ({ cpu_ms: Infinity, wall_ms: Infinity }));
for (let round = 0; round < job.rounds; ++round) {
  job.positions.forEach((position, index) => {
    const cpu = [];
    const wall = [];
    for (let run = 0; run < job.repeat; ++run) {
      // a fresh board and rack each run, built outside the timed call
      const board = boardOf(position);
      const rack = rackOf(position);
      const usage = process.cpuUsage();
      started = performance.now();
      solver.solve(gaddag, config, board, rack);
      wall.push(performance.now() - started);
      const used = process.cpuUsage(usage);
      cpu.push((used.user + used.system) / 1000);
    }
    results[index].cpu_ms = Math.min(results[index].cpu_ms, median(cpu));
    results[index].wall_ms = Math.min(results[index].wall_ms, median(wall));
  });
}
found.forEach(({ plays, best }, index) => {
  results[index].plays = plays;
  results[index].best =
    best === null
      ? null
      : {
          points: best.points,
          x: best.x,
          y: best.y,
          horizontal: best.isHorizontal,
          tiles: best.tiles,
          blanks: best.blankIndices,
        };
});
console.log(JSON.stringify({ differences, words: words.length, build_ms: buildMs, results }));
