/**
 * Limits on what one GraphQL document may ask for, applied as validation rules
 * before anything runs: how deep selections nest (each level can be a
 * relationship, i.e. more queries) and how many aliases it uses (aliases let
 * one request repeat an expensive field many times). Payload's own
 * `maxComplexity` bounds the total estimated cost on top of these.
 * Work is linear in the document: each fragment's depth is computed once.
 */
import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql'

export type GraphQLLimits = { maxDepth: number; maxAliases: number; maxComplexity: number }

function selectionDepth(set: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>, memo: Map<string, number>, visiting: Set<string>): number {
  if (!set) return 0
  let deepest = 0
  for (const selection of set.selections) {
    let depth = 0
    if (selection.kind === Kind.FIELD) {
      depth = selection.name.value.startsWith('__') ? 0 : 1 + selectionDepth(selection.selectionSet, fragments, memo, visiting)
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      depth = selectionDepth(selection.selectionSet, fragments, memo, visiting)
    } else {
      const name = selection.name.value
      if (!memo.has(name) && !visiting.has(name)) {
        visiting.add(name) // a cycle is reported by GraphQL's own NoFragmentCycles rule
        memo.set(name, selectionDepth(fragments.get(name)?.selectionSet, fragments, memo, visiting))
        visiting.delete(name)
      }
      depth = memo.get(name) ?? 0
    }
    deepest = Math.max(deepest, depth)
  }
  return deepest
}

export function maxDepthRule(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const document = context.getDocument()
    const fragments = new Map(
      document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
    )
    const memo = new Map<string, number>()
    return {
      OperationDefinition(operation) {
        const depth = selectionDepth(operation.selectionSet, fragments, memo, new Set())
        if (depth > maxDepth) {
          context.reportError(new GraphQLError(`Query is too deep: ${depth} levels; the limit is ${maxDepth} (GRAPHQL_MAX_DEPTH).`, { nodes: [operation] }))
        }
      },
    }
  }
}

export function maxAliasesRule(maxAliases: number) {
  return (context: ValidationContext): ASTVisitor => {
    let aliases = 0
    return {
      Field(field) {
        if (field.alias && ++aliases === maxAliases + 1) {
          context.reportError(new GraphQLError(`Query uses more than ${maxAliases} aliases (GRAPHQL_MAX_ALIASES).`, { nodes: [field] }))
        }
      },
    }
  }
}

/** Payload's `graphQL` settings for these limits. */
export function graphqlLimits({ maxDepth, maxAliases, maxComplexity }: GraphQLLimits) {
  return { maxComplexity, validationRules: () => [maxDepthRule(maxDepth), maxAliasesRule(maxAliases)] }
}
