// ESLint rule `wp/no-entity-manager-parameter` (eslint.config.mjs): the unit of work is carried in
// the async context (`TxHost` of @wp/persistence), never handed around as a TypeORM
// `EntityManager` (docs/decisions.md § Transactions in the request context, "What stays
// explicit, and why"). Reports every parameter whose type annotation names `EntityManager` —
// alone, in a union (`EntityManager | DataSource`), optional, defaulted, a rest parameter, a
// constructor parameter property — of functions, methods, arrow functions and function types
// (a callback `(manager: EntityManager) => …` hands a manager over too), and every property of
// an interface or type literal typed so (an options object carrying a manager). `typeorm`'s
// `EntityManager` imported under another name is recognised by that name. Purely syntactic: no
// type information needed.
'use strict';

/** @param {unknown} node @returns {node is { type: string }} */
const isNode = (node) => typeof node === 'object' && node !== null && 'type' in node;

/** Checked where they stand (their own parameters and properties), not as part of another type. */
const OWN_CHECK = new Set(['TSFunctionType', 'TSConstructorType', 'TSTypeLiteral']);

/**
 * Whether a type annotation names one of `names` (also inside unions, arrays, generics; not
 * inside function types and type literals, which are checked on their own).
 */
function mentions(typeNode, names) {
  if (!isNode(typeNode) || OWN_CHECK.has(typeNode.type)) return false;
  if (typeNode.type === 'TSTypeReference') {
    const name = typeNode.typeName;
    const last = name.type === 'TSQualifiedName' ? name.right.name : name.name;
    if (names.has(last)) return true;
  }
  for (const [key, value] of Object.entries(typeNode)) {
    if (key === 'parent' || key === 'loc' || key === 'range') continue;
    if (Array.isArray(value)) {
      if (value.some((item) => mentions(item, names))) return true;
    } else if (isNode(value) && mentions(value, names)) return true;
  }
  return false;
}

/** The node carrying a parameter's type annotation. */
function annotated(param) {
  if (param.type === 'TSParameterProperty') return annotated(param.parameter);
  if (param.type === 'AssignmentPattern') return param.left;
  return param;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'No EntityManager parameter: read the transaction from TxHost (docs/decisions.md § Transactions in the request context)',
    },
    messages: {
      parameter:
        "'{{name}}' is typed EntityManager: inject TxHost and use txHost.tx / activeTransaction(txHost) instead (docs/decisions.md § Transactions in the request context); a documented exception goes into eslint.config.mjs with its reason.",
    },
    schema: [],
  },
  create(context) {
    const names = new Set(['EntityManager']);
    const check = (param) => {
      const target = annotated(param);
      const typeNode = target.typeAnnotation?.typeAnnotation;
      if (!mentions(typeNode, names)) return;
      const name =
        target.type === 'Identifier'
          ? target.name
          : target.type === 'RestElement' && target.argument.type === 'Identifier'
            ? `...${target.argument.name}`
            : context.sourceCode.getText(target).split(':')[0].trim();
      context.report({ node: param, messageId: 'parameter', data: { name } });
    };
    const params = (node) => node.params.forEach(check);
    return {
      ImportDeclaration(node) {
        if (node.source.value !== 'typeorm') return;
        for (const spec of node.specifiers) {
          if (spec.type === 'ImportSpecifier' && spec.imported.name === 'EntityManager') {
            names.add(spec.local.name);
          }
        }
      },
      FunctionDeclaration: params,
      FunctionExpression: params,
      ArrowFunctionExpression: params,
      TSDeclareFunction: params,
      TSEmptyBodyFunctionExpression: params,
      TSFunctionType: params,
      TSConstructorType: params,
      TSMethodSignature: params,
      TSCallSignatureDeclaration: params,
      TSConstructSignatureDeclaration: params,
      TSPropertySignature(node) {
        if (mentions(node.typeAnnotation?.typeAnnotation, names)) {
          const name = node.key.type === 'Identifier' ? node.key.name : 'property';
          context.report({ node, messageId: 'parameter', data: { name } });
        }
      },
    };
  },
};

module.exports = { rule };
