export interface ToolResult {
  llmContent: string;
  returnDisplay: string;
}

export interface Tool {
  name: string;
  execute(params: unknown): Promise<ToolResult>;
}

/** BaseTool implements the parts every tool shares. */
export abstract class BaseTool implements Tool {
  constructor(public readonly name: string) {}

  abstract execute(params: unknown): Promise<ToolResult>;

  protected result(text: string): ToolResult {
    return { llmContent: text, returnDisplay: text };
  }
}

export class ReadFileTool extends BaseTool {
  constructor() {
    super('read_file');
  }

  async execute(params: unknown): Promise<ToolResult> {
    console.log('read_file', params);
    return this.result('contents');
  }
}

export class GrepTool extends BaseTool {
  constructor() {
    super('grep');
  }

  async execute(params: unknown): Promise<ToolResult> {
    console.log('grep', params);
    return this.result('matches');
  }
}
