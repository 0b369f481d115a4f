import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { Equals, IsNotEmpty, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { MayBeAbsent } from '@wp/http';
import { Trim } from '../../../common/transforms.js';

export class ProjectAttributesDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;
}

export class CreateProjectDataDto {
  @MayBeAbsent()
  @Equals('project', { message: 'must be project' })
  type?: 'project';

  @IsObject()
  @ValidateNested()
  @Type(() => ProjectAttributesDto)
  attributes!: ProjectAttributesDto;
}

/** Body of `POST …/projects`: `data.attributes.name` (`data.type`, when sent, `project`). */
export class CreateProjectDto {
  @IsObject()
  @ValidateNested()
  @Type(() => CreateProjectDataDto)
  data!: CreateProjectDataDto;
}

export class UpdateProjectDataDto {
  /**
   * Required; must equal the path's projectId (409 `PROJECT_ID_MISMATCH`). A number is accepted.
   */
  @ApiProperty({ oneOf: [{ type: 'string', minLength: 1 }, { type: 'integer' }] })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'number' ? String(value) : value))
  @IsString({ message: 'must be the project id (a string)' })
  @IsNotEmpty()
  id!: string;

  @Equals('project', { message: 'must be project' })
  type!: 'project';

  @IsObject()
  @ValidateNested()
  @Type(() => ProjectAttributesDto)
  attributes!: ProjectAttributesDto;
}

/**
 * Body of `PATCH …/projects/{projectId}` (docs/api.md § Projects): `data.id` (equal to the path
 * id), `data.type` = `project`, `data.attributes.name`, all required.
 */
export class UpdateProjectDto {
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateProjectDataDto)
  data!: UpdateProjectDataDto;
}
