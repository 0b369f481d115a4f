// The JSON:API error codes each controller method can answer, read from the code with the
// TypeScript type checker: from the method (and the guards, pipes and parameter decorators on it
// and its controller) every call into the workspace's sources is followed, and each error built
// on the way (`new WalletNotFoundError()`, `new LedgerError('INSUFFICIENT_FUNDS', …)`,
// `LangfuseApiError.unauthorized(…)`) is instantiated with its literal arguments to read the
// `status`, `code` and `title` the class itself gives it. No list is written by hand, so the
// codes cannot drift from the code. Used by scripts/openapi-metadata.js;
// docs/api-documentation.md § Error codes per operation.
'use strict';
require('./ts-register.js');
const { join } = require('node:path');
const ts = require('typescript');

const root = join(__dirname, '..');
/** The error classes whose instances are answered (with their subclasses). */
const ERROR_BASES = new Set(['DomainError', 'LangfuseApiError']);
/** Methods of a guard, pipe or interceptor class named in a decorator that run per request. */
const ENHANCER_METHODS = new Set(['canActivate', 'transform', 'intercept', 'handleRequest']);

const inWorkspace = (sf) =>
  !sf.isDeclarationFile &&
  !sf.fileName.includes('/node_modules/') &&
  !/\.(spec|e2e-spec)\.ts$/.test(sf.fileName) &&
  !sf.fileName.includes('/test/');

/**
 * `(program) → { of(declaration): Entry[], warnings: string[] }`: `of` gives the errors a
 * function, method or class (its per-request methods) can raise, as `{status, code, title}`
 * entries, deduplicated and sorted by status then code.
 */
function errorAnalysis(program) {
  const checker = program.getTypeChecker();
  const memo = new Map();
  const warnings = new Set();
  const implementations = indexImplementations(program);

  function isErrorClass(type) {
    const seen = new Set();
    const walk = (t) => {
      const symbol = t?.getSymbol();
      if (!symbol || seen.has(symbol)) return false;
      seen.add(symbol);
      if (ERROR_BASES.has(symbol.getName())) return true;
      if (!(t.flags & ts.TypeFlags.Object) || !(t.objectFlags & ts.ObjectFlags.ClassOrInterface)) {
        return false;
      }
      return (checker.getBaseTypes(t) ?? []).some(walk);
    };
    return walk(type);
  }

  /** The value of a literal argument (string, number, `'X' satisfies T`, a literal const). */
  function literal(node) {
    if (!node) return undefined;
    if (ts.isStringLiteralLike(node)) return node.text;
    if (ts.isNumericLiteral(node)) return Number(node.text);
    if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (node.kind === ts.SyntaxKind.NullKeyword) return null;
    if (
      ts.isSatisfiesExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isParenthesizedExpression(node)
    ) {
      return literal(node.expression);
    }
    if (ts.isIdentifier(node)) {
      const declaration = checker.getSymbolAtLocation(node)?.valueDeclaration;
      if (
        declaration &&
        ts.isVariableDeclaration(declaration) &&
        ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const
      ) {
        return literal(declaration.initializer);
      }
    }
    return undefined;
  }

  /** The exported runtime value of a class declaration (required through ts-register). */
  function runtimeClass(symbol) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declaration = target.valueDeclaration;
    if (!declaration || !ts.isClassDeclaration(declaration)) return undefined;
    const exported = require(declaration.getSourceFile().fileName)[target.getName()];
    if (typeof exported !== 'function') {
      warnings.add(`${target.getName()} is not exported from ${relative(declaration)}`);
    }
    return typeof exported === 'function' ? exported : undefined;
  }

  /** `{status, code, title}` of an error value, when both status and code are known. */
  function entryOf(value) {
    if (!value || typeof value.status !== 'number' || typeof value.code !== 'string') return [];
    const items = typeof value.toItems === 'function' ? value.toItems() : [value];
    return items.map((item, i) => ({
      status: Number(item.status ?? value.status),
      code: item.code,
      title: (i === 0 ? value.title : item.title) ?? value.errorName ?? '',
      jsonApi: typeof value.toItems === 'function',
    }));
  }

  /** Errors an error-building expression (`new X(…)`, `X.factory(…)`) evaluates to, or null. */
  function evaluate(node) {
    if (!isErrorClass(checker.getTypeAtLocation(node))) return null;
    const values = (node.arguments ?? []).map(literal);
    let build;
    if (ts.isNewExpression(node)) {
      const symbol = checker.getSymbolAtLocation(node.expression);
      const Class = symbol && runtimeClass(symbol);
      if (Class) build = (args) => new Class(...args);
    } else if (ts.isPropertyAccessExpression(node.expression)) {
      const symbol = checker.getSymbolAtLocation(node.expression.expression);
      const Class = symbol && runtimeClass(symbol);
      const factory = Class?.[node.expression.name.text];
      if (typeof factory === 'function') build = (args) => factory.apply(Class, args);
    }
    if (!build) return null;
    // Arguments that are not literals (messages, issues) are stand-ins: nothing, then an empty
    // list (`issues.map`), then an empty object.
    for (const standIn of [undefined, [], {}]) {
      try {
        return entryOf(build(values.map((v) => (v === undefined ? standIn : v))));
      } catch {
        // try the next stand-in
      }
    }
    warnings.add(`cannot build ${node.getText().slice(0, 80)} at ${relative(node)}`);
    return null;
  }

  function relative(node) {
    const sf = node.getSourceFile();
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
    return `${sf.fileName.slice(root.length + 1)}:${line + 1}`;
  }

  /** Declarations a call may run: the resolved one, or the implementations of an abstract one. */
  function targets(call) {
    const declaration = checker.getResolvedSignature(call)?.declaration;
    if (!declaration || !inWorkspace(declaration.getSourceFile())) return [];
    if (declaration.body) return [declaration];
    const name = declaration.name?.getText();
    const owner = declaration.parent?.name?.getText();
    return (implementations.get(`${owner}.${name}`) ?? []).filter((d) => d.body);
  }

  /** Errors raised anywhere under `node` (calls followed, memoised per declaration). */
  function scan(node, found) {
    const visit = (n) => {
      if (ts.isNewExpression(n) || ts.isCallExpression(n)) {
        const entries = evaluate(n);
        if (entries && entries.length > 0) {
          found.push(...entries);
          n.arguments?.forEach(visit);
          return;
        }
        if (entries && entries.length === 0 && ts.isNewExpression(n)) {
          warnings.add(`no literal code at ${relative(n)}: ${n.getText().slice(0, 80)}`);
        }
        if (ts.isCallExpression(n)) for (const d of targets(n)) found.push(...of(d));
      }
      if (ts.isDecorator(n)) decorated(n, found);
      // A function kept in a property (`readonly check = async (…) => {…}`) and handed on as a
      // value is called where its type, not its declaration, is known: count it here.
      if (ts.isPropertyAccessExpression(n)) {
        const declaration = checker.getSymbolAtLocation(n)?.valueDeclaration;
        if (
          declaration &&
          ts.isPropertyDeclaration(declaration) &&
          declaration.initializer &&
          (ts.isArrowFunction(declaration.initializer) ||
            ts.isFunctionExpression(declaration.initializer)) &&
          inWorkspace(declaration.getSourceFile())
        ) {
          found.push(...of(declaration));
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(node);
  }

  /** Classes and functions named in a decorator (`@UseGuards(G)`, `@Param('x', Pipe)`). */
  function decorated(decorator, found) {
    const visit = (n) => {
      if (ts.isIdentifier(n)) {
        let symbol = checker.getSymbolAtLocation(n);
        if (symbol && symbol.flags & ts.SymbolFlags.Alias)
          symbol = checker.getAliasedSymbol(symbol);
        const declaration = symbol?.valueDeclaration;
        if (declaration && inWorkspace(declaration.getSourceFile())) {
          if (ts.isClassDeclaration(declaration) || ts.isFunctionDeclaration(declaration)) {
            found.push(...of(declaration));
          } else if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
            found.push(...of(declaration));
          }
        }
      }
      ts.forEachChild(n, visit);
    };
    ts.forEachChild(decorator, visit);
  }

  /** The errors of a function, method, class (its per-request methods) or variable's value. */
  function of(declaration) {
    if (memo.has(declaration)) return memo.get(declaration);
    memo.set(declaration, []); // recursion: what is found so far
    const found = [];
    if (ts.isClassDeclaration(declaration)) {
      for (const member of declaration.members) {
        if (ts.isMethodDeclaration(member) && ENHANCER_METHODS.has(member.name.getText())) {
          found.push(...of(member));
        }
      }
    } else if (ts.isVariableDeclaration(declaration) || ts.isPropertyDeclaration(declaration)) {
      scan(declaration.initializer, found);
    } else {
      scan(declaration, found);
    }
    const entries = unique(found);
    memo.set(declaration, entries);
    return entries;
  }

  return { of, warnings, checker };
}

/** Entries by status and code, once each; the titles of one code's variants joined by " / ". */
function unique(entries) {
  const byKey = new Map();
  for (const e of entries) {
    const key = `${e.status} ${e.code}`;
    const known = byKey.get(key);
    const titles = new Set([...(known?.title.split(' / ') ?? []), e.title].filter(Boolean));
    byKey.set(key, { ...e, title: [...titles].sort().join(' / ') });
  }
  return [...byKey.values()].sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}

/** `Owner.method` → the method declarations of classes extending or implementing `Owner`. */
function indexImplementations(program) {
  const index = new Map();
  for (const sf of program.getSourceFiles()) {
    if (!inWorkspace(sf)) continue;
    const visit = (node) => {
      if (ts.isClassDeclaration(node) && node.heritageClauses) {
        const parents = node.heritageClauses.flatMap((h) =>
          h.types.map((t) => t.expression.getText()),
        );
        for (const member of node.members) {
          if (!ts.isMethodDeclaration(member) || !member.name) continue;
          for (const parent of parents) {
            const key = `${parent}.${member.name.getText()}`;
            index.set(key, [...(index.get(key) ?? []), member]);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return index;
}

const HTTP_METHODS = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'Head', 'Options', 'All']);
const decoratorName = (d) =>
  ts.isCallExpression(d.expression) ? d.expression.expression.getText() : d.expression.getText();

/**
 * The errors of each route of a controller file: `{Controller: {method: Entry[]}}`, where an
 * Entry is `{status, code, title}` and the route's class and method decorators count.
 */
function controllerErrorCodes(sf, analysis) {
  const out = {};
  for (const statement of sf.statements) {
    if (!ts.isClassDeclaration(statement) || !statement.name) continue;
    const classDecorators = ts.getDecorators(statement) ?? [];
    if (!classDecorators.some((d) => decoratorName(d) === 'Controller')) continue;
    const fromClass = classDecorators.flatMap((d) => analysis.of(d));
    const methods = {};
    for (const member of statement.members) {
      if (!ts.isMethodDeclaration(member)) continue;
      if (!(ts.getDecorators(member) ?? []).some((d) => HTTP_METHODS.has(decoratorName(d))))
        continue;
      methods[member.name.getText()] = unique([...fromClass, ...analysis.of(member)]);
    }
    out[statement.name.text] = methods;
  }
  return out;
}

/** The errors of an exported class's per-request methods (a global guard or pipe). */
function classErrorCodes(program, analysis, file, name) {
  const sf = program.getSourceFile(join(root, file));
  const declaration = sf?.statements.find((s) => ts.isClassDeclaration(s) && s.name?.text === name);
  if (!declaration) throw new Error(`${name} not found in ${file}`);
  return analysis.of(declaration);
}

/**
 * The errors every route of a service can meet besides its own, by when they apply:
 * `all` (a path that is not a valid URL, a U+0000 in a parameter: 400; headers over Node's size
 * limit: 431; shutting down or the database unreachable: 503), `parameters` (routes with a path
 * parameter: one over Fastify's length limit, 414), `body` (routes with a body: malformed or too
 * deeply nested JSON 400, too large 413, not JSON 415), `apiKey` (the global Api-Key guard),
 * `bearer` (the global Bearer guard).
 * Codes and titles come from the classes and STATUS_DEFAULTS of @wp/http.
 */
function frameworkErrorCodes(program, analysis) {
  const { STATUS_DEFAULTS } = require(join(root, 'libs/http/src/index.ts'));
  const byStatus = (...statuses) =>
    statuses.map((status) => ({ status, ...STATUS_DEFAULTS[status], jsonApi: true }));
  const pipe = classErrorCodes(
    program,
    analysis,
    'libs/http/src/validation/request-validation.pipe.ts',
    'RequestValidationPipe',
  );
  return {
    all: unique([...byStatus(400, 431, 503), ...pipe]),
    parameters: unique(byStatus(414)),
    body: unique(byStatus(400, 413, 415)),
    apiKey: classErrorCodes(program, analysis, 'libs/security/src/api-key.guard.ts', 'ApiKeyGuard'),
    bearer: classErrorCodes(
      program,
      analysis,
      'libs/security/src/jwt-auth.guard.ts',
      'JwtAuthGuard',
    ),
  };
}

module.exports = { errorAnalysis, controllerErrorCodes, frameworkErrorCodes, unique };
