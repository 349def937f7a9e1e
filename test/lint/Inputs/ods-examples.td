// ODS fixture for ../ods-examples.test: three examples, the second of which
// the round-trip fixture lacks.

    Example:

    ```mlir
    croq.wait %f
    ```

    Example:

    ```mlir
    croq.wait %g
    ```

    Example:

    ```mlir
    !croq.events<4>
    ```
