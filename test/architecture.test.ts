import 'reflect-metadata';
import path from 'node:path';
import ts from 'typescript';
import { httpStatusOf } from '../src/http/status';

/**
 * The layers of docs/architecture.md, checked on the source: the domain knows no face, public
 * domain operations take typed commands, and the faces reach the database only through the domain.
 * Each failure lists every offender, file and line.
 */

const ROOT = path.resolve(__dirname, '..');
const SRC = path.join(ROOT, 'src');
const FACES = ['rest', 'graphql', 'http', 'hosted', 'wire', 'cli', 'v1'];

const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const under = (file: string, folder: string) => relative(file).startsWith(`src/${folder}/`);
const lineOf = (node: ts.Node) => node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1;
const where = (node: ts.Node) => `${relative(node.getSourceFile().fileName)}:${lineOf(node)}`;

/** The project as tsconfig.json compiles it, restricted to src/, with its type checker. */
function loadProgram() {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json could not be read');
  const program = ts.createProgram({
    rootNames: parsed.fileNames.filter((file) => path.resolve(file).startsWith(SRC + path.sep)),
    options: parsed.options,
  });
  const sources = program.getSourceFiles().filter((source) => path.resolve(source.fileName).startsWith(SRC + path.sep));
  return { program, checker: program.getTypeChecker(), sources };
}

/** Every module a file names: import and export declarations, `import type`, `import()` and `require()`. */
function importsOf(source: ts.SourceFile): Array<{ specifier: string; node: ts.Node }> {
  const found: Array<{ specifier: string; node: ts.Node }> = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, node });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push({ specifier: node.moduleReference.expression.text, node });
    } else if (
      ts.isCallExpression(node) &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0]) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      found.push({ specifier: node.arguments[0].text, node });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, node });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const resolveIn = (source: ts.SourceFile, specifier: string) =>
  specifier.startsWith('.') ? path.resolve(path.dirname(source.fileName), specifier) : null;

/**
 * Whether an import is erased from the emitted JavaScript: `import type`, `export type`, an import
 * whose every name is `type`, and `import('…')` in a type. Those cannot make a load-order circle.
 */
function erased(node: ts.Node): boolean {
  if (ts.isImportTypeNode(node)) return true;
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  if (!ts.isImportDeclaration(node) || !node.importClause) return false;
  const clause = node.importClause;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/** The source file a relative specifier names (`./x` is `./x.ts` or `./x/index.ts`), if it is in the program. */
function importedFile(byPath: Map<string, ts.SourceFile>, source: ts.SourceFile, specifier: string) {
  const target = resolveIn(source, specifier);
  if (!target) return undefined;
  return byPath.get(`${target}.ts`) ?? byPath.get(path.join(target, 'index.ts')) ?? byPath.get(target);
}

/** A circle of the graph, as its nodes with the first repeated at the end, or null when there is none (a DFS). */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const done = new Set<string>();
  const trail: string[] = [];
  const onTrail = new Set<string>();
  const visit = (node: string): string[] | null => {
    if (onTrail.has(node)) return [...trail.slice(trail.indexOf(node)), node];
    if (done.has(node)) return null;
    trail.push(node);
    onTrail.add(node);
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    trail.pop();
    onTrail.delete(node);
    done.add(node);
    return null;
  };
  for (const node of [...graph.keys()].sort()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

const isPrivate = (member: ts.ClassElement) =>
  (ts.getCombinedModifierFlags(member) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0 ||
  (member.name !== undefined && ts.isPrivateIdentifier(member.name));

const report = (what: string, offenders: string[]) =>
  offenders.length === 0 ? '' : `${offenders.length} ${what}:\n  ${offenders.join('\n  ')}`;

describe('Architecture: the layers of docs/architecture.md', () => {
  let loaded: ReturnType<typeof loadProgram>;

  beforeAll(() => {
    loaded = loadProgram();
  });

  test('the program covers src/ (the checks below would pass vacuously otherwise)', () => {
    const domain = loaded.sources.filter((source) => under(source.fileName, 'domain'));
    expect(domain.length).toBeGreaterThan(30);
    expect(loaded.sources.some((source) => under(source.fileName, 'rest'))).toBe(true);
  });

  test('no file under src/domain imports a face: src/rest, src/graphql, src/http, src/hosted, src/wire, src/cli or src/v1', () => {
    const offenders: string[] = [];
    for (const source of loaded.sources.filter((file) => under(file.fileName, 'domain'))) {
      for (const { specifier, node } of importsOf(source)) {
        const target = resolveIn(source, specifier);
        const face =
          target &&
          FACES.find(
            (folder) => target === path.join(SRC, folder) || target.startsWith(path.join(SRC, folder) + path.sep),
          );
        if (face) offenders.push(`${where(node)} imports '${specifier}' (src/${face})`);
      }
    }
    expect(report('imports of a face from the domain', offenders)).toBe('');
  });

  test("no folder of src/domain is named after a face (a face's names and views live in the face)", () => {
    const folders = new Set(
      loaded.sources
        .filter((source) => under(source.fileName, 'domain'))
        .map((source) => relative(source.fileName).split('/')[2]),
    );
    expect(FACES.filter((face) => folders.has(face)).map((face) => `src/domain/${face}/`)).toEqual([]);
  });

  test('the faces do not import each other: src/rest, src/graphql and src/v1 never import one another or src/hosted', () => {
    const forbidden: Record<string, string[]> = {
      rest: ['graphql', 'hosted', 'v1'],
      graphql: ['rest', 'hosted', 'v1'],
      v1: ['rest', 'graphql', 'hosted'],
    };
    const offenders: string[] = [];
    for (const [face, others] of Object.entries(forbidden)) {
      for (const source of loaded.sources.filter((file) => under(file.fileName, face))) {
        for (const { specifier, node } of importsOf(source)) {
          const target = resolveIn(source, specifier);
          const other =
            target &&
            others.find(
              (folder) => target === path.join(SRC, folder) || target.startsWith(path.join(SRC, folder) + path.sep),
            );
          if (other) offenders.push(`${where(node)} imports '${specifier}' (src/${other})`);
        }
      }
    }
    expect(report('imports of one face from another', offenders)).toBe('');
  });

  test('src/http, the kernel the faces share, imports no face: src/rest, src/v1, src/graphql or src/hosted (the server is assembled in src/server)', () => {
    const faces = ['rest', 'v1', 'graphql', 'hosted'];
    const offenders: string[] = [];
    for (const source of loaded.sources.filter((file) => under(file.fileName, 'http'))) {
      for (const { specifier, node } of importsOf(source)) {
        const target = resolveIn(source, specifier);
        const face =
          target &&
          faces.find(
            (folder) => target === path.join(SRC, folder) || target.startsWith(path.join(SRC, folder) + path.sep),
          );
        if (face) offenders.push(`${where(node)} imports '${specifier}' (src/${face})`);
      }
    }
    expect(report('imports of a face from src/http', offenders)).toBe('');
  });

  test("one mapper of Fastify's own failures: its error codes (FST_ERR_…) are named only in src/http/framework-errors.ts", () => {
    const offenders: string[] = [];
    for (const source of loaded.sources.filter((file) => relative(file.fileName) !== 'src/http/framework-errors.ts')) {
      const visit = (node: ts.Node) => {
        if (ts.isStringLiteralLike(node) && node.text.startsWith('FST_ERR_'))
          offenders.push(`${where(node)} names '${node.text}'`);
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(report("mappings of Fastify's failures outside src/http/framework-errors.ts", offenders)).toBe('');
  });

  test('every public method of a public domain class takes (ctx, command): a RequestContext first, and no parameter typed unknown', () => {
    // Public methods that are not domain operations, each with the reason; a line whose method is
    // gone fails the test, so the list stays exact. Not checked at all: src/domain/shared/ (the kernel
    // operations are built from: the context, rows, crypto, the job port) and entities (rows).
    const lifecycle = "the process's lifecycle (the worker or the server starts and stops it), for no actor";
    const beforeContext =
      "the HTTP layer's work around a request, before or after its context acts: the credential, the Idempotency-Key and its stored response";
    const view = 'what a row already read shows, computed from settings: no database, no actor';
    const adapter = 'an adapter to the outside world (HTTP, signatures), with no database and no actor';
    const payload = "a domain event's payload, in its subscriber's hands: the subscriber's ctx already acts";
    const schedule = 'arithmetic of the retry schedule: no database, no actor';
    const notOperations: Record<string, string> = {
      'EventRecording.send': payload,
      'ClockAdvancing.count': payload,
      'ClockSlice.fire': payload,
      'RetrySchedule.firstAttemptAt': schedule,
      'RetrySchedule.afterAttempt': schedule,
      'DeliveryAttempts.close': lifecycle,
      'DeliveryAttempts.announceRecorded':
        "the delivery pump's publication of the attempts it wrote, after their commit, for no actor",
      'DeliveryPump.start': lifecycle,
      'DeliveryPump.stop': lifecycle,
      'WebhookService.close': lifecycle,
      'WebhookSender.close': lifecycle,
      'LedgerService.check': "the operator's integrity check of a database (the CLI), before any business or actor",
      'WebhookService.announceRecorded':
        "the delivery pump's publication of the attempts it wrote, after their commit, for no actor",
      'AuthService.credentialExpiresAt': beforeContext,
      'AuthService.dashboardToken': beforeContext,
      'IdempotencyService.begin': beforeContext,
      'IdempotencyService.complete': beforeContext,
      'IdempotencyService.abandon': beforeContext,
      'IdempotencyService.purgeExpired': beforeContext,
      'IdempotencyClaim.resourceOf': beforeContext,
      'TokenSigner.sign': adapter,
      'TokenSigner.verify': adapter,
      'TokenSigner.expiresAt': adapter,
      'WebhookSender.post': adapter,
      'CheckoutService.urlOf': view,
      'CheckoutService.pathOf': view,
      'CheckoutService.threeDSecurePathOf': view,
      'CheckoutService.successUrlOf': view,
      'CheckoutService.redirectUrlOf': view,
      'PaymentLinkService.urlOf': view,
      'RecipientService.detailsOf': view,
      'CollectionService.sessionRails': view,
    };
    const { checker } = loaded;
    const isContext = (parameter: ts.ParameterDeclaration) => {
      const declaration = checker.getTypeAtLocation(parameter).getSymbol()?.declarations?.[0];
      return (
        declaration !== undefined &&
        ts.isClassDeclaration(declaration) &&
        declaration.name?.text === 'RequestContext' &&
        relative(declaration.getSourceFile().fileName) === 'src/domain/shared/context.ts'
      );
    };
    const isEntity = (node: ts.ClassDeclaration) =>
      (ts.getDecorators(node) ?? []).some((decorator) => /^Entity\b/.test(decorator.expression.getText()));
    const offenders: string[] = [];
    const checked = new Set<string>();
    const excepted = new Set<string>();
    const classes = loaded.sources.filter(
      (source) => under(source.fileName, 'domain') && !under(source.fileName, 'domain/shared'),
    );
    for (const source of classes) {
      for (const node of source.statements) {
        if (!ts.isClassDeclaration(node) || !node.name || isEntity(node)) continue;
        if (!(ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export)) continue;
        for (const member of node.members) {
          if (isPrivate(member) || ts.isConstructorDeclaration(member)) continue;
          const fn = ts.isMethodDeclaration(member)
            ? member
            : ts.isPropertyDeclaration(member) &&
                member.initializer &&
                (ts.isArrowFunction(member.initializer) || ts.isFunctionExpression(member.initializer))
              ? member.initializer
              : null;
          if (!fn) continue;
          const name = `${node.name.text}.${member.name?.getText()}`;
          checked.add(node.name.text);
          if (name in notOperations) {
            excepted.add(name);
            continue;
          }
          const [first] = fn.parameters;
          if (!first || !isContext(first))
            offenders.push(`${where(member)} ${name}: its first parameter is not the ctx`);
          for (const parameter of fn.parameters) {
            if (checker.getTypeAtLocation(parameter).flags & ts.TypeFlags.Unknown)
              offenders.push(`${where(parameter)} ${name}(${parameter.name.getText()}: unknown)`);
          }
        }
      }
    }
    // Services, and the stores, runners, registries and guards beside them.
    expect([...checked]).toEqual(
      expect.arrayContaining([
        'ChargeService',
        'PaymentStore',
        'ChargeStore',
        'ScheduleRunner',
        'WebhookEndpointRegistry',
        'CardTestingGuard',
        'BusinessDirectory',
      ]),
    );
    const gone = Object.keys(notOperations)
      .filter((name) => !excepted.has(name))
      .map((name) => `${name} is no longer a public method: take it off the list`);
    expect(report('public domain methods not taking (ctx, command)', [...offenders, ...gone])).toBe('');
  });

  test('the REST, GraphQL and /v1 faces, the hosted pages and the operator CLI reach the database only through the domain: no typeorm import, no repository or entity manager', () => {
    const offenders: string[] = [];
    const faces = loaded.sources.filter((source) =>
      ['rest', 'graphql', 'v1', 'hosted', 'cli'].some((face) => under(source.fileName, face)),
    );
    for (const source of faces) {
      for (const { specifier, node } of importsOf(source)) {
        if (specifier === 'typeorm' || specifier.startsWith('typeorm/'))
          offenders.push(`${where(node)} imports '${specifier}'`);
      }
      const visit = (node: ts.Node) => {
        if (
          ts.isPropertyAccessExpression(node) &&
          ['getRepository', 'repo', 'createQueryBuilder', 'manager', 'em'].includes(node.name.text)
        ) {
          offenders.push(`${where(node)} uses .${node.name.text} (a repository or entity manager)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(report('database accesses from a face', offenders)).toBe('');
  });

  test("every code of the domain's ErrorCode, the generic ones and each area's, is raised somewhere in src/domain (the HTTP layer's own codes live in src/http/error-codes.ts)", () => {
    // Codes the domain declares before it raises them, each with the reason.
    const reserved: Record<string, string> = {
      CARD_DECLINED:
        'documented on createCharge and the recurring gift charge for card payments; not raised yet (docs/rest-api.md, Errors)',
    };
    const errorsFile = path.join(SRC, 'domain', 'shared', 'errors.ts');
    const domain = loaded.sources.filter((source) => under(source.fileName, 'domain'));
    // The constants codes are raised by: the generic `ErrorCode`, and each area's `codesOf(<TABLE>)`.
    const codeConstants = new Set(['ErrorCode']);
    const codesNamedIn = (node: ts.Node) => {
      const codes: string[] = [];
      const visit = (child: ts.Node) => {
        if (
          ts.isPropertyAccessExpression(child) &&
          ts.isIdentifier(child.expression) &&
          codeConstants.has(child.expression.text)
        )
          codes.push(child.name.text);
        ts.forEachChild(child, visit);
      };
      visit(node);
      return codes;
    };
    const objectOf = (expression: ts.Expression): ts.ObjectLiteralExpression | undefined => {
      while (ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression)) expression = expression.expression;
      return ts.isObjectLiteralExpression(expression) ? expression : undefined;
    };
    const declared = new Map<string, string>(); // each code, and the file declaring it
    const declaring = new Set<ts.SourceFile>();
    const helpers = new Map<string, string[]>(); // the helpers of shared/errors.ts, and the codes each raises
    for (const source of domain) {
      const isShared = path.resolve(source.fileName) === errorsFile;
      if (!isShared && !source.fileName.endsWith('.errors.ts')) continue;
      declaring.add(source);
      for (const statement of source.statements) {
        if (!ts.isVariableStatement(statement)) continue;
        for (const declaration of statement.declarationList.declarations) {
          if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
          const name = declaration.name.text;
          const table = objectOf(declaration.initializer);
          if (table && (isShared ? name === 'ErrorCode' : /^[A-Z_]+_ERRORS$/.test(name))) {
            for (const property of table.properties)
              if (property.name && ts.isIdentifier(property.name))
                declared.set(property.name.text, relative(source.fileName));
          } else if (
            !isShared &&
            ts.isCallExpression(declaration.initializer) &&
            declaration.initializer.expression.getText() === 'codesOf'
          ) {
            codeConstants.add(name);
          } else if (isShared && ts.isArrowFunction(declaration.initializer)) {
            helpers.set(name, codesNamedIn(declaration.initializer));
          }
        }
      }
    }
    expect(declared.size).toBeGreaterThan(15);
    expect(codeConstants.size).toBeGreaterThan(4);
    const raised = new Set<string>();
    for (const source of domain.filter((file) => !declaring.has(file))) {
      codesNamedIn(source).forEach((code) => raised.add(code));
      const visit = (node: ts.Node) => {
        if (ts.isCallExpression(node) && ts.isIdentifier(node.expression))
          (helpers.get(node.expression.text) ?? []).forEach((code) => raised.add(code));
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    const offenders = [...declared]
      .filter(([code]) => !raised.has(code) && !(code in reserved))
      .map(([code, file]) => `${file}: ${code}`);
    const raisedAfterAll = Object.keys(reserved)
      .filter((code) => raised.has(code))
      .map((code) => `${code} is raised now: take it off the reserved list`);
    // An area's table reaches the faces only through its manifest's `errors` (src/http/status.ts gathers them).
    const unlisted = [...declared]
      .filter(([code]) => !(code in httpStatusOf))
      .map(([code, file]) => `${file}: ${code} is in no area's manifest (errors)`);
    expect(
      report('codes the domain never raises (an HTTP-level code belongs in src/http/error-codes.ts)', [
        ...offenders,
        ...raisedAfterAll,
        ...unlisted,
      ]),
    ).toBe('');
  });

  test('no static method reads this, so one passed on unbound (.map(Payment.from)) works: the lint lets them be (eslint.config.mjs)', () => {
    const offenders: string[] = [];
    // `this` inside a nested function or class is another `this`; inside an arrow it is the method's.
    const readsThis = (node: ts.Node): ts.Node | undefined => {
      if (node.kind === ts.SyntaxKind.ThisKeyword) return node;
      if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isClassLike(node)) return undefined;
      return ts.forEachChild(node, readsThis);
    };
    for (const source of loaded.sources) {
      const visit = (node: ts.Node) => {
        if (ts.isMethodDeclaration(node) && node.body && ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Static) {
          const found = readsThis(node.body);
          if (found) offenders.push(`${where(found)} static ${node.name.getText()} reads this`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(report('static methods reading this', offenders)).toBe('');
  });

  test('every *.states.ts declares its machine as a TransitionTable (a RowMachine only through rowMachine), and no other file declares one', () => {
    // rowMachine is for rows moved by moveRow (one conditional UPDATE of a tenant row, one status per
    // action); a table applied under a lock, or to a state that is no row's status (NOT_STARTED,
    // UNDISPUTED), is a TransitionTable applied with assertTransition. Both are TransitionTables.
    const machines = loaded.sources.filter((source) => source.fileName.endsWith('.states.ts'));
    expect(machines.length).toBeGreaterThan(10);
    const withoutTable = machines
      .filter((source) => !/: TransitionTable</.test(source.text))
      .map((source) => `${relative(source.fileName)} declares no TransitionTable`);
    const elsewhere = loaded.sources
      .filter((source) => !source.fileName.endsWith('.states.ts'))
      .filter(
        (source) =>
          !['src/domain/shared/states.ts', 'src/domain/shared/row-transition.ts'].includes(relative(source.fileName)),
      )
      .filter((source) => /: TransitionTable</.test(source.text))
      .map((source) => `${relative(source.fileName)} declares a transition table outside a *.states.ts`);
    expect(report('misplaced state machines', [...withoutTable, ...elsewhere])).toBe('');
  });

  test('no domain file outside *.states.ts gates a write on a status it compares: a refusal or an early exit by status reads its transition table', () => {
    // Sites that compare a status to a literal before a throw or an early exit and are no move, each with the reason.
    const exceptions: Record<string, string> = {
      'src/domain/payments/charge.service.ts':
        'answers an idempotent replay whose payment still waits for the acquirer (IDEMPOTENCY_REQUEST_IN_PROGRESS): it refuses an answer, it moves nothing',
    };
    const isStatusRead = (node: ts.Node) => ts.isPropertyAccessExpression(node) && node.name.text === 'status';
    // A status literal: 'pending', or a member of an enum named …Status (CollectionStatus.PENDING).
    const isStatusLiteral = (node: ts.Node) =>
      ts.isStringLiteralLike(node) ||
      (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && /Status$/.test(node.expression.text));
    const equality = [
      ts.SyntaxKind.EqualsEqualsEqualsToken,
      ts.SyntaxKind.ExclamationEqualsEqualsToken,
      ts.SyntaxKind.EqualsEqualsToken,
      ts.SyntaxKind.ExclamationEqualsToken,
    ];
    const comparesStatus = (node: ts.Node): boolean => {
      if (
        ts.isBinaryExpression(node) &&
        equality.includes(node.operatorToken.kind) &&
        ((isStatusRead(node.left) && isStatusLiteral(node.right)) ||
          (isStatusRead(node.right) && isStatusLiteral(node.left)))
      )
        return true;
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'includes' &&
        node.arguments.some(isStatusRead)
      )
        return true;
      return !ts.isFunctionLike(node) && (ts.forEachChild(node, comparesStatus) ?? false);
    };
    // A refusal (throw) or an early exit that answers nothing (return;, null, a boolean, an outcome's name).
    const gates = (statement: ts.Statement): boolean => {
      if (ts.isBlock(statement))
        return statement.statements.length > 0 && gates(statement.statements[statement.statements.length - 1]);
      if (ts.isThrowStatement(statement)) return true;
      if (!ts.isReturnStatement(statement)) return false;
      const value = statement.expression;
      return (
        !value ||
        [ts.SyntaxKind.NullKeyword, ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword].includes(value.kind) ||
        ts.isStringLiteralLike(value)
      );
    };
    // An UPDATE that sets a status where the row's status is a literal ('pending'): a move the table does not drive.
    const literalMove = /\bUPDATE\b[^;]*\bSET\b[^;]*\bstatus\s*=[^;]*\bWHERE\b[^;]*\bstatus\s*(=|IN\s*\()\s*'/i;
    const offenders: string[] = [];
    const excused = new Set<string>();
    const sources = loaded.sources.filter(
      (source) => under(source.fileName, 'domain') && !source.fileName.endsWith('.states.ts'),
    );
    for (const source of sources) {
      const file = relative(source.fileName);
      const flag = (node: ts.Node, what: string) =>
        file in exceptions ? excused.add(file) : offenders.push(`${where(node)} ${what}`);
      const visit = (node: ts.Node) => {
        if (ts.isIfStatement(node) && comparesStatus(node.expression) && gates(node.thenStatement))
          flag(node, `if (${node.expression.getText().replace(/\s+/g, ' ')})`);
        if (
          (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) &&
          literalMove.test(node.getText())
        )
          flag(node, 'moves a status by a literal in SQL');
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    const stale = Object.keys(exceptions)
      .filter((file) => !excused.has(file))
      .map((file) => `${file} gates nothing by status now: take it off the exceptions`);
    expect(report('status checks gating a write outside a transition table', [...offenders, ...stale])).toBe('');
  });
});

/** The files of src/ whose text contains `needle`, as paths relative to the repository. */
const filesContaining = (sources: readonly ts.SourceFile[], needle: string | RegExp) =>
  sources
    .filter((source) => (typeof needle === 'string' ? source.text.includes(needle) : needle.test(source.text)))
    .map((source) => relative(source.fileName))
    .sort();

describe('Architecture: one of each (issue 28)', () => {
  let sources: ts.SourceFile[];

  beforeAll(() => {
    sources = loadProgram().sources;
  });

  test("PostgreSQL's unique_violation (23505) is recognised in one file: src/domain/shared/unique-violation.ts", () => {
    expect(filesContaining(sources, "'23505'")).toEqual(['src/domain/shared/unique-violation.ts']);
  });

  test('one page contract: ListPage and PageQuery; the deprecated Page, PageRequest and OffsetPage are gone', () => {
    expect(filesContaining(sources, /\b(PageRequest|OffsetPage|offsetPage)\b/)).toEqual([]);
    expect(filesContaining(sources, /import\s*(type\s*)?\{[^}]*\bPage\b[^}]*\}\s*from\s*'[^']*\/pagination'/)).toEqual(
      [],
    );
    expect(
      filesContaining(sources, /export (interface|type) Page\b/).filter((file) => file.endsWith('/pagination.ts')),
    ).toEqual([]);
  });

  test('the per-parent keyset page (one statement, a page per parent) is written once: keysetPagesPerParent', () => {
    expect(filesContaining(sources, 'PARTITION BY wanted.slot')).toEqual(['src/domain/shared/pagination.ts']);
  });

  test("a rail's acceptance is recorded in one place for payouts and treasury payouts: dispatchToRail", () => {
    expect(filesContaining(sources, /SET provider_ref = /)).toEqual(['src/domain/shared/row-transition.ts']);
  });

  test('every row machine is declared through rowMachine, which refuses an action leading to two statuses', () => {
    const declaring = filesContaining(sources, /RowMachine</).filter(
      (file) => file !== 'src/domain/shared/row-transition.ts',
    );
    expect(declaring.length).toBeGreaterThan(0);
    expect(
      declaring.filter(
        (file) => !sources.find((source) => relative(source.fileName) === file)!.text.includes('rowMachine('),
      ),
    ).toEqual([]);
  });

  test("graphile-worker's schema (its job tables and functions) is read and written by one jobs-port module: src/domain/shared/jobs.ts", () => {
    expect(filesContaining(sources, 'graphile_worker.')).toEqual(['src/domain/shared/jobs.ts']);
  });
});

describe('Architecture: areas reach each other through the domain event bus (issue 28)', () => {
  let sources: ts.SourceFile[];

  beforeAll(() => {
    sources = loadProgram().sources;
  });

  const isFunction = (node: ts.Node) =>
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node);

  test('no domain class or options bag takes a hook by a setter or an on… callback (onPayoutMoved, onModeEnabled, …): areas subscribe to events', () => {
    const offenders: string[] = [];
    const HOOK = /^on[A-Z]\w*$/;
    for (const source of sources.filter((file) => under(file.fileName, 'domain'))) {
      const visit = (node: ts.Node) => {
        if (ts.isClassDeclaration(node)) {
          for (const member of node.members) {
            if (isPrivate(member) || !member.name || !HOOK.test(member.name.getText())) continue;
            if (ts.isMethodDeclaration(member) || ts.isPropertyDeclaration(member))
              offenders.push(`${where(member)} ${node.name?.text ?? '(class)'}.${member.name.getText()}`);
          }
        }
        if (
          (ts.isPropertySignature(node) || ts.isMethodSignature(node)) &&
          HOOK.test(node.name.getText()) &&
          (ts.isMethodSignature(node) || (node.type !== undefined && ts.isFunctionTypeNode(node.type)))
        ) {
          offenders.push(`${where(node)} ${node.name.getText()}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(report('hook registrations outside the event bus', offenders)).toBe('');
  });

  test('the composition root names no area and calls no method of a service: it loops over the manifests, building their services, then subscribing their subscriptions', () => {
    const core = sources.find((source) => relative(source.fileName) === 'src/domain/core.ts')!;
    // The kernel's pieces only: an area's service is built by its manifest (src/domain/<area>/index.ts).
    const areaImports = importsOf(core)
      .filter(({ node }) => !(ts.isImportDeclaration(node) && node.importClause?.isTypeOnly))
      .map(({ specifier }) => specifier)
      .filter((specifier) => specifier.startsWith('./') && !specifier.startsWith('./shared/'));
    expect(areaImports).toEqual([]);
    const createCore = core.statements.find(
      (statement): statement is ts.FunctionDeclaration =>
        ts.isFunctionDeclaration(statement) && statement.name?.text === 'createCore',
    )!;
    // Reads, not wiring: the test-mode mailer, and each manifest's subscriptions.
    const allowed = new Set(['providers.inMode', 'area.subscriptions']);
    const offenders: string[] = [];
    const subscribeCalls: ts.Node[] = [];
    const visit = (node: ts.Node) => {
      if (node !== createCore && isFunction(node)) return; // runs later, when a service calls it
      // A statement run for its effect alone (announceLowBalanceOnV1(lowBalance, v1Events)) wires areas by hand.
      if (ts.isExpressionStatement(node) && node.parent === createCore.body) {
        const call = ts.isCallExpression(node.expression) ? node.expression.expression.getText() : null;
        if (!call || !allowed.has(call)) offenders.push(`${where(node)} ${node.getText().split('(')[0]}(…)`);
        return;
      }
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const callee = node.expression.getText();
        if (callee === 'core.bus.subscribe') subscribeCalls.push(node);
        else if (!allowed.has(callee)) offenders.push(`${where(node)} ${callee}(…)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(createCore);
    expect(report('calls on built services in createCore', offenders)).toBe('');
    expect(subscribeCalls).toHaveLength(1);
    let loop: ts.Node | undefined = subscribeCalls[0].parent;
    while (loop && !(ts.isForOfStatement(loop) && loop.parent === createCore.body)) loop = loop.parent;
    expect(loop && ts.isForOfStatement(loop) && loop.expression.getText()).toBe('areas');
  });

  test('the bus lives in src/domain/shared and names no area: areas add their events by module augmentation', () => {
    const bus = sources.find((source) => relative(source.fileName) === 'src/domain/shared/domain-events.ts')!;
    expect(importsOf(bus).map(({ specifier }) => specifier)).toEqual(['./context']);
    const augmenting = filesContaining(sources, "declare module '../shared/domain-events'");
    expect(augmenting.length).toBeGreaterThan(5);
    expect(
      augmenting.filter((file) => file.startsWith('src/domain/shared/') && !file.endsWith('/domain-events.ts')),
    ).toEqual([]);
  });
});

describe('Architecture: areas as modules (issue 28)', () => {
  let loaded: ReturnType<typeof loadProgram>;
  let byPath: Map<string, ts.SourceFile>;
  const DOMAIN = path.join(SRC, 'domain');
  /** The area of a file under src/domain (its first folder), or null for a file at the top of src/domain. */
  const areaOf = (file: string) => {
    const parts = path.relative(DOMAIN, path.resolve(file)).split(path.sep);
    return parts[0] === '..' || parts.length < 2 ? null : parts[0];
  };

  beforeAll(() => {
    loaded = loadProgram();
    byPath = new Map(loaded.sources.map((source) => [path.resolve(source.fileName), source]));
  });

  test('the areas of src/domain form a DAG: no area imports, even a type, from an area that imports it, directly or around a circle', () => {
    const graph = new Map<string, Set<string>>();
    const edges = new Map<string, string[]>(); // "a -> b": the imports that make it
    for (const source of loaded.sources) {
      const from = areaOf(source.fileName);
      if (!from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      for (const { specifier, node } of importsOf(source)) {
        const target = importedFile(byPath, source, specifier);
        const to = target && areaOf(target.fileName);
        if (!to || to === from) continue;
        graph.get(from)!.add(to);
        const edge = `${from} -> ${to}`;
        edges.set(edge, [...(edges.get(edge) ?? []), `${where(node)} imports '${specifier}'`]);
      }
    }
    expect(graph.size).toBeGreaterThan(10);
    const cycle = findCycle(graph);
    const explained = (cycle ?? []).slice(1).map((to, index) => {
      const edge = `${cycle![index]} -> ${to}`;
      return `${edge}: ${edges.get(edge)!.join('; ')}`;
    });
    expect(cycle ? `areas importing each other around ${cycle.join(' -> ')}:\n  ${explained.join('\n  ')}` : '').toBe(
      '',
    );
  });

  test("outside an area, src imports it only through its index.ts, by the area's folder ('../domain/payments'): value and type imports alike", () => {
    // The kernel's folders are no areas: src/domain/shared and src/domain/events are imported file by file.
    const kernel = new Set(['shared', 'events']);
    const offenders: string[] = [];
    let throughIndex = 0;
    for (const source of loaded.sources) {
      const from = areaOf(source.fileName);
      for (const { specifier } of importsOf(source)) {
        const target = importedFile(byPath, source, specifier);
        const to = target && areaOf(target.fileName);
        if (!to || to === from || kernel.has(to)) continue;
        const folder = path
          .relative(path.dirname(source.fileName), path.join(DOMAIN, to))
          .split(path.sep)
          .join('/')
          .replace(/^(?!\.)/, './');
        if (path.resolve(target.fileName) !== path.join(DOMAIN, to, 'index.ts') || specifier.endsWith('/index'))
          offenders.push(`${relative(source.fileName)}: '${specifier}' (import '${folder}')`);
        else throughIndex += 1;
      }
    }
    expect(throughIndex).toBeGreaterThan(100);
    expect(report("imports of an area's files from outside it", offenders)).toBe('');
  });

  test('no file of an area imports its own index.ts (the index loads the area: that would be a load circle)', () => {
    const offenders: string[] = [];
    for (const source of loaded.sources) {
      const area = areaOf(source.fileName);
      if (!area || path.basename(source.fileName) === 'index.ts') continue;
      const index = path.join(DOMAIN, area, 'index.ts');
      for (const { specifier } of importsOf(source)) {
        const target = importedFile(byPath, source, specifier);
        if (target && path.resolve(target.fileName) === index)
          offenders.push(`${relative(source.fileName)}: '${specifier}'`);
      }
    }
    expect(report('imports of their own index from the files of an area', offenders)).toBe('');
  });

  test('src/domain/shared, the kernel, imports no area', () => {
    const offenders: string[] = [];
    for (const source of loaded.sources.filter((file) => areaOf(file.fileName) === 'shared')) {
      for (const { specifier, node } of importsOf(source)) {
        const target = importedFile(byPath, source, specifier);
        const area = target && areaOf(target.fileName);
        if (area && area !== 'shared') offenders.push(`${where(node)} imports '${specifier}' (${area})`);
      }
    }
    expect(report('imports of an area from src/domain/shared', offenders)).toBe('');
  });

  test("each area declares its pub/sub topics in its <area>.topics.ts, and src/domain/events/pubsub.ts names no other area's topic", () => {
    const pubsub = byPath.get(path.join(DOMAIN, 'events', 'pubsub.ts'))!;
    const payloads = pubsub.statements.find(
      (statement): statement is ts.InterfaceDeclaration =>
        ts.isInterfaceDeclaration(statement) && statement.name.text === 'TopicPayloads',
    )!;
    const topics = loaded.checker.getDeclaredTypeOfSymbol(loaded.checker.getSymbolAtLocation(payloads.name)!);
    const offenders: string[] = [];
    const othersTopics: string[] = [];
    for (const topic of topics.getProperties()) {
      for (const declaration of topic.declarations ?? []) {
        const file = declaration.getSourceFile().fileName;
        const area = areaOf(file);
        if (path.basename(file) !== `${area}.topics.ts`) offenders.push(`${where(declaration)} declares ${topic.name}`);
        if (area !== 'events') othersTopics.push(topic.name);
      }
    }
    expect(othersTopics.length).toBeGreaterThan(5);
    for (const name of othersTopics) {
      if (new RegExp(`\\b${name}\\b`).test(pubsub.text)) offenders.push(`src/domain/events/pubsub.ts names ${name}`);
    }
    expect(report('topics declared outside their area', offenders)).toBe('');
  });

  test('no two files of src import each other, directly or around a circle (imports the compiler erases, import type, are left out: they load nothing)', () => {
    const graph = new Map<string, Set<string>>();
    const lines = new Map<string, string>(); // "a -> b": where a imports b
    for (const source of loaded.sources) {
      const from = relative(source.fileName);
      if (!graph.has(from)) graph.set(from, new Set());
      for (const { specifier, node } of importsOf(source)) {
        if (erased(node)) continue;
        const target = importedFile(byPath, source, specifier);
        if (!target) continue;
        const to = relative(target.fileName);
        graph.get(from)!.add(to);
        if (!lines.has(`${from} -> ${to}`)) lines.set(`${from} -> ${to}`, where(node));
      }
    }
    expect(graph.size).toBeGreaterThan(100);
    const cycle = findCycle(graph);
    const explained = (cycle ?? []).slice(1).map((to, index) => lines.get(`${cycle![index]} -> ${to}`)!);
    expect(cycle ? `files importing each other around a circle:\n  ${explained.join('\n  ')}` : '').toBe('');
  });
});
