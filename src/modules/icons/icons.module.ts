import { Module } from '@nestjs/common';
import { IconsController } from './icons.controller';

@Module({ controllers: [IconsController] })
export class IconsModule {}
