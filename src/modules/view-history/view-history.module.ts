import { Module } from '@nestjs/common';
import { ViewHistoryController } from './view-history.controller';
import { ViewHistoryRepository } from './view-history.repository';
import { ViewHistoryService } from './view-history.service';

export { type ViewedDocType } from './view-history.service';

@Module({
  controllers: [ViewHistoryController],
  providers: [ViewHistoryRepository, ViewHistoryService],
  exports: [ViewHistoryService],
})
export class ViewHistoryModule {}
