import { EMPTY_INDICATORS } from "../../../domain/tracking/model";
import { builder } from "../../builder";

export const EmptyIndicatorEnum = builder.enumType("EmptyIndicator", { values: EMPTY_INDICATORS });
