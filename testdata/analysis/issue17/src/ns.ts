export namespace Shapes {
  export const unit = 1;
}
