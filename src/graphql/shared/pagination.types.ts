import { Field, Int, ObjectType } from 'type-graphql';

/** The one pagination object every paged list returns (decisions.md section 4). */
@ObjectType('Pagination')
export class PaginationType {
  @Field(() => Int)
  page: number;

  @Field(() => Int)
  limit: number;

  @Field(() => Int)
  total: number;

  @Field(() => Int)
  totalPages: number;
}

export function pagination(page: number, limit: number, total: number): PaginationType {
  return { page, limit, total, totalPages: limit > 0 ? Math.ceil(total / limit) : 0 };
}
